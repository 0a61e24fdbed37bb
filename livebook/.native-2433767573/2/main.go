package main






func main() {
}
