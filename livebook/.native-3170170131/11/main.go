package main
func main() {
}
