// SPDX-License-Identifier: GPL-2.0
/*
 * The one place the tracepoints of trace.h are instantiated; every other
 * file includes trace.h only to call them.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"
