SPECS = {
    "linear_regression": (lambda: dict(n=10, p=2, sigma=0.5, intercept=True, seed=0),
                          {"n": "count", "p": "count", "sigma": "nonnegative", "intercept": "bool",
                           "seed": "seed"}),
    "two_gaussians": (lambda: dict(n=10, mean_pos=(1.0, 1.0), mean_neg=(-1.0, -1.0), cov_pos=None,
                                   cov_neg=[[1.0, 0.2], [0.2, 1.0]], frac_pos=0.5, labels="01", seed=0),
                      {"n": "count", "mean_pos": "array", "mean_neg": "array", "cov_pos": "array?",
                       "cov_neg": "array?", "frac_pos": "probability", "labels": "choice", "seed": "seed"}),
    "separable": (lambda: dict(n=10, d=2, margin=0.2, radius=1.0, seed=0),
                  {"n": "count", "d": "count", "margin": "nonnegative", "radius": "positive",
                   "seed": "seed"}),
    "sine_1d": (lambda: dict(n=10, sigma=0.2, low=0.0, high=1.0, seed=0),
                {"n": "count", "sigma": "nonnegative", "low": "number", "high": "number", "seed": "seed"}),
}
EXEMPT = {}
