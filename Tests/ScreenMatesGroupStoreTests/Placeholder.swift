// The group-store protocol suite goes here.
