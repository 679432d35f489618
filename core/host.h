/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where core/ meets its host: the kernel module or userspace.
 *
 * core/ is freestanding C shared by tscprobe.ko and the tscprobe CLI.  It
 * uses only the fixed-width types, bool and size_t, and the few compiler
 * helpers below, so that the same loop is compiled into both and what the
 * userspace benchmarks measure is what the module runs.
 */
#ifndef TSCPROBE_CORE_HOST_H
#define TSCPROBE_CORE_HOST_H

#ifdef __KERNEL__
#include <linux/types.h>	/* uint64_t & co., bool, size_t */
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#define tp_likely(x)		__builtin_expect(!!(x), 1)
#define tp_unlikely(x)		__builtin_expect(!!(x), 0)
#define TP_CACHELINE		64
#define TP_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* UINT64_MAX: <linux/types.h> does not provide it (the kernel has U64_MAX). */
#define TP_U64_MAX		(~(uint64_t)0)

/*
 * In the kernel, the kernel's own helpers; in userspace, what they expand
 * to there (checkpatch's exceptions in tools/checkpatch-exceptions).
 */
#ifdef __KERNEL__
#include <linux/build_bug.h>	/* static_assert() */
#include <linux/compiler.h>	/* __always_inline, barrier() */
#define tp_always_inline	__always_inline
#define tp_noinline		noinline
#define tp_aligned(n)		__aligned(n)
#define tp_barrier()		barrier()
#define tp_static_assert(e, m)	static_assert(e, m)
#define tp_read_once(x)		READ_ONCE(x)
#define tp_write_once(x, v)	WRITE_ONCE(x, v)
#else
#define tp_always_inline	inline __attribute__((__always_inline__))
#define tp_noinline		__attribute__((__noinline__))
#define tp_aligned(n)		__attribute__((__aligned__(n)))
#define tp_barrier()		__asm__ __volatile__("" : : : "memory")
#define tp_static_assert(e, m)	_Static_assert(e, m)
#define tp_read_once(x)		(*(const volatile __typeof__(x) *)&(x))
#define tp_write_once(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#endif

#endif /* TSCPROBE_CORE_HOST_H */
