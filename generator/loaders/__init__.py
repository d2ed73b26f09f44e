"""One loader per input format; each turns files into validated ``ir.Definition``s."""
