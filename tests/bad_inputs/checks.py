import numpy as np

SPECS = {
    "claim": (lambda: dict(statement="one is one", ok=True), {"statement": "string", "ok": "bool"}),
    "claim_close": (lambda: dict(statement="close", actual=np.array([1.0, 2.0]), expected=np.array([1.0, 2.0 + 1e-9]),
                                 atol=1e-8, rtol=1e-6),
                    {"statement": "string", "actual": "array", "expected": "array", "atol": "nonnegative",
                     "rtol": "nonnegative"}),
    "claims_in": (lambda: dict(text="\u2713 first\nnot a claim"), {"text": "string"}),
}
EXEMPT = {}
