"""Where the program starts: the command line, the headless commands, the self-test and the log."""
