"""``python -m kingsbreakfast`` runs the same command line as ``kingsbreakfast``."""

from kingsbreakfast.cli.main import run

if __name__ == "__main__":
    run()
