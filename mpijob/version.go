package mpijob

// Version is mpibench's release, in every record's context.tool.
const Version = "0.1.0"
