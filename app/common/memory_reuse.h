#pragma once

namespace ratelab::app {

/// Asks the C library to keep freed memory for the next allocation rather than hand it back to
/// the kernel. Every edit replaces each run's decision columns, about 2 MB per algorithm on a
/// 100k trace; by default glibc often unmaps such blocks on free, and the next edit then waits
/// for fresh zeroed pages (tens of thousands of page faults over a session of edits). Blocks up
/// to 32 MiB are then taken from the heap, and up to 256 MiB of freed heap is kept. Call it
/// first thing in main(). Returns whether the C library took the settings; with another C
/// library, or a sanitizer's allocator, it changes nothing and returns false.
bool keepFreedMemoryForReuse();

}  // namespace ratelab::app
