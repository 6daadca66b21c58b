module mpibench

go 1.22
