#pragma once

#include <cstdint>

namespace ratelab::app {

/// Restarts the program once, as early as main() can, with glibc asked to back malloc's large
/// blocks with transparent huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), a setting glibc
/// reads only when a process starts.
///
/// A large trace is hundreds of megabytes of fresh memory: the requests, the decision columns,
/// the file's text while it is parsed. Mapped 4 KB at a time that is tens of thousands of page
/// faults, and on a virtual machine the first pass over fresh pages costs more again; in 2 MB
/// pages it is a few hundred. On the benchmark machine `ratelab-cli simulate --summary` of 10
/// million requests took 2.3-2.7 s without and 0.7-1.3 s with, and the app opened them in 2.4-2.9
/// s instead of 3.8-3.9 s.
///
/// Returns at once, changing nothing, when the setting is already there (also as
/// glibc.malloc.hugetlb=0, the way to turn this off), when this process is the restart, under
/// Valgrind (a restart would leave it), in a setuid process, or when the restart fails.
void restartWithHugePageMalloc(char* argv[]);

/// Whether any of the arguments after the program's name names a regular file of at least
/// `bytes`. Asked with stat(2), which allocates nothing, so that a program can decide on the
/// restart above before its first allocation: the restart loads the program a second time (about
/// 50 ms for ratelab-cli, linked with Qt), which only a large input repays.
bool namesFileOfAtLeast(char* argv[], std::uintmax_t bytes);

}  // namespace ratelab::app
