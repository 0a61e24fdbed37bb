package symbols

import (
	"fmt"
	"io"
	"log"
	"os"
)

// The extractor gives a cell these replacements for what would end the
// page's interpreter (os.Exit, log.Fatal): they panic, which ends the cell
// only, as exiting ends the cell's program under GoNB.

func osExit(code int) { panic(fmt.Sprintf("os.Exit(%d)", code)) }

func osFindProcess(pid int) (*os.Process, error) {
	return nil, fmt.Errorf("os.FindProcess(%d): there are no processes in the page", pid)
}

func logFatal(v ...any)            { log.Panic(v...) }
func logFatalf(f string, v ...any) { log.Panicf(f, v...) }
func logFatalln(v ...any)          { log.Panicln(v...) }

// logLogger is log.Logger whose Fatal methods panic.
type logLogger struct{ *log.Logger }

func logNew(out io.Writer, prefix string, flag int) *logLogger {
	return &logLogger{log.New(out, prefix, flag)}
}

func (l *logLogger) Fatal(v ...any)            { l.Panic(v...) }
func (l *logLogger) Fatalf(f string, v ...any) { l.Panicf(f, v...) }
func (l *logLogger) Fatalln(v ...any)          { l.Panicln(v...) }
