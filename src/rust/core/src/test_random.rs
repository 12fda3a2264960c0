//! A small deterministic generator for the unit tests' random cases (xorshift64).

pub struct XorShift(u64);

impl XorShift {
    /// `seed` must not be zero.
    pub fn new(seed: u64) -> Self {
        XorShift(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `k`.
    pub fn below(&mut self, k: u64) -> u32 {
        (self.next() % k) as u32
    }
}
