#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Runs rdma-core's pyverbs test suite (a directory of plain .py files, as
pyverbs.sh unpacks it) and prints one line per test, for a shell to count:

    ok ID
    fail ID: the last line of the failure
    skip ID: the reason

usage: pyverbs_run.py TESTS_DIR DEVICE GID_INDEX [NAME...]

The suite's own run_tests.py prints unittest's verbose report, whose lines
break at docstrings; this runner loads the suite the same way (its package
__init__ and argument parser) and reports with a result class of its own.
"""
import os
import sys
import unittest
from importlib.machinery import SourceFileLoader


class LineResult(unittest.TestResult):
    """Prints each outcome as one line as soon as it is known."""

    def _say(self, word, test, why=None):
        line = f'{word} {test.id()}'
        if why:
            line += ': ' + ' '.join(str(why).split())[:300]
        print(line, flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self._say('ok', test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._say('fail', test, f'{err[0].__name__}: {err[1]}')

    def addError(self, test, err):
        super().addError(test, err)
        self._say('fail', test, f'{err[0].__name__}: {err[1]}')

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._say('skip', test, reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._say('ok', test, 'expected failure')

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._say('fail', test, 'unexpected success')


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    tests_dir, dev, gid = sys.argv[1:4]
    names = sys.argv[4:]
    sys.path.insert(0, tests_dir)
    # The suite's modules read their configuration from its parser.
    sys.argv = [sys.argv[0], '--dev', dev, '--gid', gid]
    from args_parser import parser  # pylint: disable=import-outside-toplevel
    parser.parse_args()
    tests = SourceFileLoader(
        'tests', os.path.join(tests_dir, '__init__.py')).load_module()
    loader = unittest.TestLoader()
    if names:
        suite = loader.loadTestsFromNames(names, tests)
    else:
        suite = loader.loadTestsFromModule(tests)
    result = LineResult()
    suite.run(result)
    print(f'# ran {result.testsRun}', flush=True)


if __name__ == '__main__':
    main()
