def ascii_board(p):
    return repr(p)
