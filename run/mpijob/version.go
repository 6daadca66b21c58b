package mpijob

// Version is mpibench's release, in every record's context.tool
// after Program.
const Version = "0.1.0"
