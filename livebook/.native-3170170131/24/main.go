package main







func main() {
}
