package mpijob

// Program is the binary in every record's context.tool and the headers.
// Records written by releases that ran the IMB commands through a separate
// binary name "mpibench-imb" there; readers accept both.
const Program = "mpibench"
