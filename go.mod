module mpibench

go 1.24
