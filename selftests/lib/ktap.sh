# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# KTAP helpers for scripts outside the selftest collection (scripts/lint).
# They live in selftests/mrc/ktap.sh, so that the collection is complete on
# its own when it is installed (make install INSTALL_PATH=...) or copied
# into a kernel's tools/testing/selftests.
# shellcheck source=../mrc/ktap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../mrc/ktap.sh"
