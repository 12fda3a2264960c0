//! Large buffers on huge pages where the system offers them (Linux with transparent
//! huge pages, which "madvise" mode grants on request). Fresh memory costs a page
//! fault per 4 KiB page on first touch; on a virtual machine those faults took a fifth
//! of the CPU time of a 1e7-row call, and two threads faulting at once wait on each
//! other. A 2 MiB page takes one fault for 512.

/// The huge page size of x86-64 and aarch64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// Buffers from this size on are advised (smaller ones would gain little).
const ADVISE_BYTES: usize = 4 * HUGE_PAGE;

/// `vec![value; len]`, on huge pages when large.
pub fn filled<T: Copy>(len: usize, value: T) -> Vec<T> {
    let mut v: Vec<T> = with_capacity(len);
    v.resize(len, value);
    v
}

/// `iter` (of exactly `len` items) collected, on huge pages when large.
#[inline(always)]
pub fn collected<T>(len: usize, iter: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut v: Vec<T> = with_capacity(len);
    v.extend(iter);
    v
}

/// An empty vector with room for `len` items, advised when large.
pub fn with_capacity<T>(len: usize) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(len);
    let bytes = len.saturating_mul(std::mem::size_of::<T>());
    if bytes >= ADVISE_BYTES {
        advise_huge_pages(v.as_mut_ptr() as usize, bytes);
    }
    v
}

/// Asks for huge pages on the whole 2 MiB pages of `start..start + bytes`.
#[cfg(target_os = "linux")]
pub fn advise_huge_pages(start: usize, bytes: usize) {
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: the range lies within one allocation this process owns; the advice
        // changes how its pages are backed, never their contents, and a refusal (no
        // transparent huge pages) leaves the memory as it was.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub fn advise_huge_pages(_start: usize, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_and_small_buffers_hold_what_was_asked() {
        for len in [0usize, 10, (ADVISE_BYTES / 4) + 12_345] {
            let v = filled(len, 7u32);
            assert_eq!(v.len(), len);
            assert!(v.iter().all(|&x| x == 7));
            let w = collected(len, (0..len).map(|i| i as u32));
            assert!(w.iter().enumerate().all(|(i, &x)| x == i as u32));
        }
    }
}
