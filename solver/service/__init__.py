"""What the command line and the Python API share: solving a deal and showing its line."""
