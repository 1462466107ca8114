"""A syntax error."""

def alpha_beta_search(game, state)
    return None
