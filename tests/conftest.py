import matplotlib

matplotlib.use("Agg")  # tests never open a window
