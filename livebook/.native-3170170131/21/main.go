package main
import "context"








var ctx = context.Background()
var answer011 = 0.0
var answer012 = 0.0
func main() {
}
