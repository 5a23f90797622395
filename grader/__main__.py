"""``python -m grader``: the umbrella command."""

from grader.cli.main import main

if __name__ == "__main__":
    main()
