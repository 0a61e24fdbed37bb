// Package strictio reads the files the workbench itself wrote (journals,
// instances, results, study shards and results, benchmark JSON) the way
// an argument is checked: before any work, with an error naming the file
// and what is wrong.
//
//   - ReadRegular refuses what is not a regular file (a directory, a FIFO,
//     a device, a socket) without opening it — opening a FIFO blocks until
//     a writer comes, which is how `reproduce bench` hung on one — and a
//     file larger than its limit.
//   - DecodeJSON decodes one JSON value into a struct the way
//     encoding/json does, and refuses in addition what encoding/json lets
//     through silently: an object key given twice (encoding/json keeps the
//     last), a key the struct does not have, and anything but white space
//     after the value.
package strictio
