module example.com/crosspkg

go 1.26
