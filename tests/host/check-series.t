#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series in series/ applies to linux-source-6.1 patch by patch, each
# patch is checkpatch --strict clean and adds no W=1 warning, and the
# kernel builds at the end (tests/host/check-series.sh).
cd "$(dirname "$0")/../.." && exec ./tests/host/check-series.sh
