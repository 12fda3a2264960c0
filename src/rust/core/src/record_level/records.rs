//! Record-level risk (definitions vignette 10.6): for every original and every synthetic record, the
//! counts of its q and its cell after the exclusions of definitions vignette section 5, so that summing the
//! per-record flags gives UiO, UiOiS, repU, Dorig, DiSCO and DCAPd (original records)
//! and Taub's TCAP (synthetic records) exactly as the measures count them.
//!
//! A record's cell (t, q) is excluded from the tables of original counts by the first
//! of steps 1-4 that applies, or by step 5 when its `d[t,q]` exceeds `denom_lim`; a
//! synthetic record's cell is excluded from the synthetic table likewise, with `s[t,q]`.
//!
//! Two passes per synthesis. The first walks q in blocks and tabulates each q's cells
//! (a few per q, not one per record). The second writes each record's row straight
//! into columns the caller owns (`RowSink`), in parallel pieces: a record reads its q's
//! entry and its cell, nothing else, so no per-record table is built and copied. Both
//! tables are read at random, so they live on huge pages (see `memory`).

use crate::codes::{CodeSource, LevelCodes};
use crate::encode::EncodedVar;
use crate::error::{CoreError, CoreResult};
use crate::exclusions::{missing_key_flags, ExclusionSpec, STEP_DENOM_LIM};
use crate::keys::{build_key_index, KeyIndex};
use crate::memory;
use crate::rows_by_q::RowsByQ;
use crate::with_codes;
use crate::workers::{ShouldStop, Workers};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};

/// An original record under one synthesis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OriginalRecord {
    /// Original and synthetic records of its q after exclusions.
    pub d_q: u32,
    pub s_q: u32,
    /// Kept, and the only original record of its q (sums to UiO).
    pub unique_orig: bool,
    /// And its q occurs in the synthesis before exclusions (UiOiS).
    pub unique_in_syn: bool,
    /// And one synthetic record of its q remains (repU).
    pub replicated_unique: bool,
    /// `1 / d_q`; `None` when excluded.
    pub rk: Option<f64>,
    /// Kept, and its target level is the only one of its q in the original / in the
    /// synthesis, counted before exclusions as Dorig and DiSCO count them.
    pub disclosive_orig: bool,
    pub disco: bool,
    /// The kept synthetic share of its own target level in its q (0 when excluded):
    /// its share of DCAPd.
    pub cap: f64,
    /// Exclusion step (1-5) that removed its cell, 0 for none.
    pub excluded: u8,
}

/// A synthetic record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SyntheticRecord {
    pub s_q: u32,
    pub d_q: u32,
    /// Kept, the only synthetic record of its q and of the original's (replicated unique).
    pub replicated_unique: bool,
    /// Kept, the only synthetic record of its q, which some original record has.
    pub unique_syn_in_orig: bool,
    /// The kept synthetic and original shares of its own target level in its q; `tcap` is
    /// `None` when no original record of its q remains.
    pub weap: f64,
    pub tcap: Option<f64>,
    pub excluded: u8,
}

/// Columns the caller owns, written row by row from several threads: cut at a row
/// into two halves, each written only by the thread holding it.
pub trait RowSink<T>: Send + Sized {
    fn len(&self) -> usize;
    fn split_at(self, mid: usize) -> (Self, Self);
    fn put(&mut self, row: usize, value: T);
}

impl<T: Send> RowSink<T> for &mut [T] {
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
    fn split_at(self, mid: usize) -> (Self, Self) {
        self.split_at_mut(mid)
    }
    fn put(&mut self, row: usize, value: T) {
        self[row] = value;
    }
}

/// One target's records: the q index and the original rows grouped by q, shared by
/// every synthesis.
pub struct Records<'e> {
    target: &'e EncodedVar<'e>,
    index: KeyIndex,
    layout: Layout,
    missing_key: Vec<bool>,
    spec: ExclusionSpec,
}

/// How the cells are held. When q x target levels is small, directly: cell (t, q) at
/// `q * n_t + t`, counted in one sequential pass per dataset, as keys.rs indexes small
/// key tuples. Otherwise only the cells that occur, found through the rows grouped by q.
enum Layout {
    Direct {
        /// Original records of each cell.
        d: Vec<u32>,
    },
    Sparse {
        rows_orig: RowsByQ,
        /// The original's target codes in the order of `rows_orig.rows`.
        t_orig: Vec<u32>,
    },
}

/// Cells up to which they are held directly (64 MiB of cells at most).
const DIRECT_CELLS: usize = 1 << 21;

/// The records of one synthesis and of the original under it: each record's cell,
/// numbered within its block of q (`block_first_cell` gives the block's first), and
/// the cells, each holding what a record of it reports.
pub struct SynthesisRecords<'r> {
    q_orig: &'r [u32],
    q_syn: &'r [u32],
    cells: Vec<Cell>,
    locate: Locate<'r>,
}

/// How a record finds its cell.
enum Locate<'r> {
    /// At `q * n_t + t`.
    Direct { n_t: usize, t_orig: &'r LevelCodes<'r>, t_syn: &'r LevelCodes<'r> },
    /// Numbered within its block of q, whose first cell is `block_first_cell[block]`.
    Sparse { block_first_cell: Vec<u32>, orig_cell: Vec<AtomicU32>, syn_cell: Vec<AtomicU32> },
}

/// A cell (t, q) under one synthesis: its counts and the steps (1-5, 0 for kept) that
/// remove it from the original and from the synthetic table, with the counts of its q
/// (before and after exclusions), so that a record reads one cell and nothing else.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(32))]
struct Cell {
    d: u32,
    s: u32,
    d_all: u32,
    s_all: u32,
    d_kept: u32,
    s_kept: u32,
    step_d: u8,
    step_s: u8,
}

/// log2 of the q per block of the first pass.
const Q_BLOCK_BITS: u32 = 12;
const Q_BLOCK: usize = 1 << Q_BLOCK_BITS;
/// Rows per piece of the second pass (a thread's unit of work).
const PIECE_ROWS: usize = 1 << 15;
/// How far ahead of the row being written its cell is fetched: each row's cell is a
/// read at random, and a row writes many columns, so without asking early the reads of
/// few rows overlap.
const PREFETCH_ROWS: usize = 16;
/// Pieces between two checks for an interrupt (a few million rows).
const PIECES_PER_STOP: usize = 128;

/// One target's record-level request: `vars` as for the engine (dataset 0 the
/// original), `keys` indices of the keys with their usekeysNA flags, `target` the
/// index of the target, `spec` its exclusions.
#[derive(Clone, Copy)]
pub struct RecordRequest<'r, 'e> {
    pub vars: &'e [EncodedVar<'e>],
    pub keys: &'r [usize],
    pub use_keys_na: &'r [bool],
    pub target: usize,
    pub spec: &'r ExclusionSpec,
}

/// One target's records.
pub fn records<'e>(
    workers: &Workers,
    request: &RecordRequest<'_, 'e>,
    should_stop: ShouldStop<'_>,
) -> CoreResult<Records<'e>> {
    records_with(workers, request, should_stop, DIRECT_CELLS)
}

/// `records()`, holding the cells directly up to `direct_cells` cells (tests try both ways).
fn records_with<'e>(
    workers: &Workers,
    request: &RecordRequest<'_, 'e>,
    should_stop: ShouldStop<'_>,
    direct_cells: usize,
) -> CoreResult<Records<'e>> {
    let RecordRequest { vars, keys, use_keys_na, target, spec } = *request;
    let tv = vars.get(target).ok_or_else(|| CoreError::new("internal: target index out of range"))?;
    if keys.is_empty() || keys.len() != use_keys_na.len() || keys.iter().any(|&k| k >= vars.len()) {
        return Err(CoreError::new("internal: keys and usekeysNA do not match"));
    }
    if spec.excluded_target.len() != tv.n_levels as usize {
        return Err(CoreError::new("internal: excluded target levels do not match the target's levels"));
    }
    let n_datasets = tv.codes.len();
    if n_datasets < 2 || keys.iter().any(|&k| vars[k].codes.len() != n_datasets) {
        return Err(CoreError::new("internal: need the original and at least one synthesis for every variable"));
    }
    let key_codes: Vec<&[LevelCodes<'_>]> = keys.iter().map(|&k| vars[k].codes.as_slice()).collect();
    let key_levels: Vec<u32> = keys.iter().map(|&k| vars[k].n_levels).collect();
    let index = workers.chunk(should_stop, || build_key_index(&key_codes, &key_levels))??;
    if index.q.iter().skip(1).any(|q| index.q[0].len() + q.len() > u32::MAX as usize) {
        return Err(CoreError::new("internal: more records than record-level tables can number"));
    }
    let key_missing: Vec<u32> = keys.iter().map(|&k| vars[k].missing_code).collect();
    let missing_key = missing_key_flags(&index, &key_missing, use_keys_na);
    let n_cells = index.n_q.saturating_mul(tv.n_levels as usize);
    let layout = if n_cells <= direct_cells {
        let d = workers.chunk(should_stop, || count_cells(&index.q[0], &tv.codes[0], tv.n_levels as usize, n_cells))?;
        Layout::Direct { d }
    } else {
        let rows_orig = RowsByQ::new(&index.q[0], index.n_q);
        let t_orig = workers.chunk(should_stop, || codes_in_order(&tv.codes[0], &rows_orig.rows))?;
        Layout::Sparse { rows_orig, t_orig }
    };
    Ok(Records { target: tv, index, layout, missing_key, spec: spec.clone() })
}

/// Records of each cell `q * n_t + t` of one dataset (`n_cells` cells), counted in
/// parallel pieces and summed (integers: the same for any number of threads).
fn count_cells(q: &[u32], codes: &LevelCodes<'_>, n_t: usize, n_cells: usize) -> Vec<u32> {
    // One table per thread's share of the records (not per piece: each table is as
    // large as the cells).
    let part_rows = q.len().div_ceil(rayon::current_num_threads()).max(PIECE_ROWS);
    let parts: Vec<Vec<u32>> = with_codes!(codes, |s| q
        .par_chunks(part_rows)
        .enumerate()
        .map(|(k, qs)| {
            let mut counts: Vec<u32> = memory::filled(n_cells, 0);
            let first = k * part_rows;
            for (i, &qi) in qs.iter().enumerate() {
                counts[qi as usize * n_t + s.code(first + i) as usize] += 1;
            }
            counts
        })
        .collect());
    let mut parts = parts.into_iter();
    let mut total = parts.next().unwrap_or_else(|| vec![0u32; n_cells]);
    for p in parts {
        total.par_iter_mut().zip(p.par_iter()).for_each(|(x, y)| *x += y);
    }
    total
}

impl<'e> Records<'e> {
    pub fn n_syntheses(&self) -> usize {
        self.index.q.len() - 1
    }

    /// Records of dataset `d` (0 the original, `j + 1` synthesis `j`).
    pub fn n_rows(&self, d: usize) -> usize {
        self.index.q.get(d).map_or(0, |q| q.len())
    }

    /// Synthesis `j` (0-based). Pass 1, over q in blocks: the cells of each q (target
    /// level, d, s and the steps that remove the cell from the original and from the
    /// synthetic table), the counts of q before and after exclusions, and each record's cell.
    pub fn synthesis(
        &self,
        workers: &Workers,
        j: usize,
        should_stop: ShouldStop<'_>,
    ) -> CoreResult<SynthesisRecords<'_>> {
        if j >= self.n_syntheses() {
            return Err(CoreError::new("internal: no such synthesis"));
        }
        match &self.layout {
            Layout::Direct { d } => self.direct_synthesis(workers, j, d, should_stop),
            Layout::Sparse { rows_orig, t_orig } => self.sparse_synthesis(workers, j, rows_orig, t_orig, should_stop),
        }
    }

    /// Pass 1 with the cells held directly: count the synthesis, then each q's cells.
    fn direct_synthesis(
        &self,
        workers: &Workers,
        j: usize,
        d: &[u32],
        should_stop: ShouldStop<'_>,
    ) -> CoreResult<SynthesisRecords<'_>> {
        let d_syn = j + 1;
        let (tv, index, spec) = (self.target, &self.index, &self.spec);
        let n_t = tv.n_levels as usize;
        let n_cells = index.n_q * n_t;
        let s = workers.chunk(should_stop, || count_cells(&index.q[d_syn], &tv.codes[d_syn], n_t, n_cells))?;
        let mut cells: Vec<Cell> = memory::filled(n_cells, Cell::default());
        workers.chunk(should_stop, || {
            cells.par_chunks_mut(Q_BLOCK * n_t).enumerate().for_each(|(b, block)| {
                let mut kt: Vec<u32> = Vec::new();
                let mut present: Vec<u32> = Vec::new();
                for (i, q_cells) in block.chunks_mut(n_t).enumerate() {
                    let q = b * Q_BLOCK + i;
                    let (dq, sq) = (&d[q * n_t..(q + 1) * n_t], &s[q * n_t..(q + 1) * n_t]);
                    present.clear();
                    present.extend((0..n_t as u32).filter(|&t| dq[t as usize] > 0 || sq[t as usize] > 0));
                    let counts = present.iter().map(|&t| (t, dq[t as usize], sq[t as usize]));
                    spec.key_target_levels_for(index, q, &mut kt);
                    let mut out = Vec::with_capacity(present.len());
                    q_cells_of(spec, self.missing_key[q], &kt, counts, &mut out);
                    for (&t, c) in present.iter().zip(out) {
                        q_cells[t as usize] = c;
                    }
                }
            })
        })?;
        Ok(SynthesisRecords {
            q_orig: &index.q[0],
            q_syn: &index.q[d_syn],
            cells,
            locate: Locate::Direct { n_t, t_orig: &tv.codes[0], t_syn: &tv.codes[d_syn] },
        })
    }

    /// Pass 1 with only the cells that occur: over q in blocks, through the rows
    /// grouped by q; each record's cell is noted as its q is walked.
    fn sparse_synthesis(
        &self,
        workers: &Workers,
        j: usize,
        rows_orig: &RowsByQ,
        t_orig: &[u32],
        should_stop: ShouldStop<'_>,
    ) -> CoreResult<SynthesisRecords<'_>> {
        let d_syn = j + 1;
        let (tv, index, spec) = (self.target, &self.index, &self.spec);
        let rows_syn = RowsByQ::new(&index.q[d_syn], index.n_q);
        let t_syn = workers.chunk(should_stop, || codes_in_order(&tv.codes[d_syn], &rows_syn.rows))?;
        let n_t = tv.n_levels as usize;
        let orig_cell: Vec<AtomicU32> =
            memory::collected(self.n_rows(0), (0..self.n_rows(0)).map(|_| AtomicU32::new(0)));
        let syn_cell: Vec<AtomicU32> =
            memory::collected(self.n_rows(d_syn), (0..self.n_rows(d_syn)).map(|_| AtomicU32::new(0)));
        let n_q = index.n_q;
        let blocks: Vec<std::ops::Range<usize>> =
            (0..n_q).step_by(Q_BLOCK).map(|lo| lo..(lo + Q_BLOCK).min(n_q)).collect();
        let parts: Vec<Vec<Cell>> = workers.chunk(should_stop, || {
            blocks
                .par_iter()
                .map(|b| {
                    const NONE: u32 = u32::MAX;
                    let mut d = vec![0u32; n_t];
                    let mut s = vec![0u32; n_t];
                    let mut slot = vec![NONE; n_t];
                    let mut touched: Vec<u32> = Vec::new();
                    let mut kt: Vec<u32> = Vec::new();
                    let mut cells: Vec<Cell> = Vec::new();
                    for q in b.clone() {
                        touched.clear();
                        let first = cells.len() as u32;
                        let (lo, hi) = (rows_orig.offsets[q], rows_orig.offsets[q + 1]);
                        for (&r, &t) in rows_orig.rows[lo..hi].iter().zip(&t_orig[lo..hi]) {
                            let t = t as usize;
                            if slot[t] == NONE {
                                slot[t] = touched.len() as u32;
                                touched.push(t as u32);
                            }
                            d[t] += 1;
                            orig_cell[r as usize].store(first + slot[t], Ordering::Relaxed);
                        }
                        let (lo, hi) = (rows_syn.offsets[q], rows_syn.offsets[q + 1]);
                        for (&r, &t) in rows_syn.rows[lo..hi].iter().zip(&t_syn[lo..hi]) {
                            let t = t as usize;
                            if slot[t] == NONE {
                                slot[t] = touched.len() as u32;
                                touched.push(t as u32);
                            }
                            s[t] += 1;
                            syn_cell[r as usize].store(first + slot[t], Ordering::Relaxed);
                        }
                        spec.key_target_levels_for(index, q, &mut kt);
                        let counts = touched.iter().map(|&t| (t, d[t as usize], s[t as usize]));
                        q_cells_of(spec, self.missing_key[q], &kt, counts, &mut cells);
                        for &t in touched.iter() {
                            d[t as usize] = 0;
                            s[t as usize] = 0;
                            slot[t as usize] = NONE;
                        }
                    }
                    cells
                })
                .collect()
        })?;
        let mut cells: Vec<Cell> = memory::with_capacity(parts.iter().map(|p| p.len()).sum());
        let mut block_first_cell = Vec::with_capacity(parts.len());
        for p in parts {
            block_first_cell.push(cells.len() as u32);
            cells.extend(p);
        }
        Ok(SynthesisRecords {
            q_orig: &index.q[0],
            q_syn: &index.q[d_syn],
            cells,
            locate: Locate::Sparse { block_first_cell, orig_cell, syn_cell },
        })
    }
}

/// The cells of one q from its levels' counts `(t, d, s)`, pushed onto `out` in that
/// order: the steps that remove each from the original and from the synthetic table,
/// and the counts of q before and after exclusions.
fn q_cells_of(
    spec: &ExclusionSpec,
    missing_key: bool,
    key_target: &[u32],
    counts: impl Iterator<Item = (u32, u32, u32)> + Clone,
    out: &mut Vec<Cell>,
) {
    let step_code = |s: Option<usize>| s.map_or(0u8, |v| v as u8 + 1);
    let over = |v: u32| matches!(spec.denom_lim, Some(lim) if v as u64 > lim);
    let first = out.len();
    let (mut d_all, mut s_all, mut d_kept, mut s_kept) = (0u32, 0u32, 0u32, 0u32);
    for (t, d, s) in counts {
        let base = spec.cell_step(t, missing_key, key_target);
        let step_d = base.or(if over(d) { Some(STEP_DENOM_LIM) } else { None });
        let step_s = base.or(if over(s) { Some(STEP_DENOM_LIM) } else { None });
        d_all += d;
        s_all += s;
        if step_d.is_none() {
            d_kept += d;
        }
        if step_s.is_none() {
            s_kept += s;
        }
        out.push(Cell {
            d,
            s,
            d_all: 0,
            s_all: 0,
            d_kept: 0,
            s_kept: 0,
            step_d: step_code(step_d),
            step_s: step_code(step_s),
        });
    }
    for c in out[first..].iter_mut() {
        (c.d_all, c.s_all, c.d_kept, c.s_kept) = (d_all, s_all, d_kept, s_kept);
    }
}

impl SynthesisRecords<'_> {
    /// Original record `r` under this synthesis.
    pub fn original(&self, r: usize) -> OriginalRecord {
        original_of(&self.cell(false, r))
    }

    /// Record `r` of this synthesis.
    pub fn synthetic(&self, r: usize) -> SyntheticRecord {
        synthetic_of(&self.cell(true, r))
    }

    /// Writes `original(r)` for every original record `r` into row `r` of `sink`.
    pub fn write_original<S: RowSink<OriginalRecord>>(
        &self,
        workers: &Workers,
        sink: S,
        should_stop: ShouldStop<'_>,
    ) -> CoreResult<()> {
        self.check_sink(self.q_orig.len(), sink.len())?;
        write_rows(workers, sink, should_stop, |r| self.prefetch_cell(false, r), |r| original_of(&self.cell(false, r)))
    }

    /// Writes `synthetic(r)` for every record `r` of this synthesis into row `r` of `sink`.
    pub fn write_synthetic<S: RowSink<SyntheticRecord>>(
        &self,
        workers: &Workers,
        sink: S,
        should_stop: ShouldStop<'_>,
    ) -> CoreResult<()> {
        self.check_sink(self.q_syn.len(), sink.len())?;
        write_rows(workers, sink, should_stop, |r| self.prefetch_cell(true, r), |r| synthetic_of(&self.cell(true, r)))
    }

    fn check_sink(&self, rows: usize, len: usize) -> CoreResult<()> {
        if len != rows {
            return Err(CoreError::new("internal: record-level output does not match the records"));
        }
        Ok(())
    }

    /// Where the cell of record `r` of the original (`syn` false) or the synthesis is.
    #[inline]
    fn cell_index(&self, syn: bool, r: usize) -> usize {
        let q = if syn { self.q_syn[r] } else { self.q_orig[r] };
        match &self.locate {
            Locate::Direct { n_t, t_orig, t_syn } => {
                q as usize * n_t + if syn { t_syn.get(r) } else { t_orig.get(r) } as usize
            }
            Locate::Sparse { block_first_cell, orig_cell, syn_cell } => {
                let local = if syn { &syn_cell[r] } else { &orig_cell[r] }.load(Ordering::Relaxed);
                (block_first_cell[(q >> Q_BLOCK_BITS) as usize] + local) as usize
            }
        }
    }

    #[inline]
    fn cell(&self, syn: bool, r: usize) -> Cell {
        self.cells[self.cell_index(syn, r)]
    }

    #[inline]
    fn prefetch_cell(&self, syn: bool, r: usize) {
        prefetch(&self.cells[self.cell_index(syn, r)]);
    }
}

#[inline]
fn original_of(c: &Cell) -> OriginalRecord {
    let kept = c.step_d == 0;
    let unique_orig = kept && c.d_kept == 1;
    OriginalRecord {
        d_q: c.d_kept,
        s_q: c.s_kept,
        unique_orig,
        unique_in_syn: unique_orig && c.s_all > 0,
        replicated_unique: unique_orig && c.s_kept == 1,
        rk: if kept { Some(1.0 / c.d_kept as f64) } else { None },
        disclosive_orig: kept && c.d_all > 0 && c.d == c.d_all,
        disco: kept && c.s_all > 0 && c.s == c.s_all,
        cap: if kept && c.s_kept > 0 { kept_count(c.s, c.step_s) as f64 / c.s_kept as f64 } else { 0.0 },
        excluded: c.step_d,
    }
}

#[inline]
fn synthetic_of(c: &Cell) -> SyntheticRecord {
    let kept = c.step_s == 0;
    SyntheticRecord {
        s_q: c.s_kept,
        d_q: c.d_kept,
        replicated_unique: kept && c.s_kept == 1 && c.d_kept == 1,
        unique_syn_in_orig: kept && c.s_kept == 1 && c.d_kept >= 1,
        weap: if c.s_kept > 0 { kept_count(c.s, c.step_s) as f64 / c.s_kept as f64 } else { 0.0 },
        tcap: if c.d_kept > 0 { Some(kept_count(c.d, c.step_d) as f64 / c.d_kept as f64) } else { None },
        excluded: c.step_s,
    }
}

/// Asks for `buf`, fresh memory the caller is about to fill, to be backed by huge pages
/// (see `memory`): the record columns are written once, and at 1e7 records their
/// first-touch page faults cost more than the writing.
pub fn advise_huge_pages<T>(buf: &mut [T]) {
    memory::advise_huge_pages(buf.as_mut_ptr() as usize, std::mem::size_of_val(buf));
}

/// Asks the processor to bring `x` into cache (a hint; nothing where not supported).
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch never faults and reads nothing into the program; `x` is a
        // valid reference anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(x as *const T as *const i8) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// `codes` of `rows`, in that order: one pass of independent reads, so that pass 1
/// reads each record's level in sequence rather than at random.
fn codes_in_order(codes: &LevelCodes<'_>, rows: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = memory::filled(rows.len(), 0);
    with_codes!(codes, |s| out.par_chunks_mut(PIECE_ROWS).zip(rows.par_chunks(PIECE_ROWS)).for_each(|(o, rs)| {
        for (x, &r) in o.iter_mut().zip(rs) {
            *x = s.code(r as usize);
        }
    }));
    out
}

fn kept_count(n: u32, step: u8) -> u32 {
    if step == 0 {
        n
    } else {
        0
    }
}

/// Pass 2: `row_value(r)` into row `r` of `sink`, in pieces of `PIECE_ROWS` rows run in
/// parallel, asking `should_stop` every `PIECES_PER_STOP` pieces. Each row depends only
/// on the tables, so the output is the same for any number of threads.
fn write_rows<T, S: RowSink<T>>(
    workers: &Workers,
    mut sink: S,
    should_stop: ShouldStop<'_>,
    prefetch: impl Fn(usize) + Sync,
    row_value: impl Fn(usize) -> T + Sync,
) -> CoreResult<()> {
    let n = sink.len();
    let mut pieces: Vec<(usize, S)> = Vec::with_capacity(n.div_ceil(PIECE_ROWS));
    let mut start = 0;
    while start < n {
        let len = PIECE_ROWS.min(n - start);
        let (head, rest) = sink.split_at(len);
        pieces.push((start, head));
        sink = rest;
        start += len;
    }
    let mut pieces = pieces.into_iter().peekable();
    while pieces.peek().is_some() {
        let batch: Vec<(usize, S)> = pieces.by_ref().take(PIECES_PER_STOP).collect();
        workers.chunk(should_stop, || {
            batch.into_par_iter().for_each(|(start, mut piece)| {
                let len = piece.len();
                for i in 0..len {
                    if i + PREFETCH_ROWS < len {
                        prefetch(start + i + PREFETCH_ROWS);
                    }
                    piece.put(i, row_value(start + i));
                }
            })
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exclusions::KeyTargetExclusion;
    use crate::test_random::XorShift;
    use crate::workers::never_stop;

    /// A random case: `keys[k][d]` and `target[d]` codes per dataset (last level of
    /// each variable its missing level), and a random exclusion spec.
    struct Case {
        key_levels: Vec<u32>,
        keys: Vec<Vec<Vec<u32>>>,
        target_levels: u32,
        target: Vec<Vec<u32>>,
        use_keys_na: Vec<bool>,
        spec: ExclusionSpec,
    }

    fn random_case(rng: &mut XorShift) -> Case {
        let n_keys = 1 + rng.below(3) as usize;
        let n_datasets = 2 + rng.below(3) as usize;
        let rows: Vec<usize> = (0..n_datasets).map(|_| rng.below(60) as usize).collect();
        let key_levels: Vec<u32> = (0..n_keys).map(|_| 1 + rng.below(4)).collect();
        let keys = key_levels
            .iter()
            .map(|&l| rows.iter().map(|&n| (0..n).map(|_| rng.below(l as u64 + 1)).collect()).collect())
            .collect();
        let target_levels = 1 + rng.below(4);
        let target = rows.iter().map(|&n| (0..n).map(|_| rng.below(target_levels as u64 + 1)).collect()).collect();
        let n_t = target_levels as usize + 1;
        let key_target = (0..rng.below(3))
            .map(|_| {
                let key = rng.below(n_keys as u64) as usize;
                KeyTargetExclusion {
                    key,
                    key_level: rng.below(key_levels[key] as u64 + 1),
                    target_level: rng.below(n_t as u64),
                }
            })
            .collect();
        let spec = ExclusionSpec {
            excluded_target: (0..n_t).map(|_| rng.below(5) == 0).collect(),
            exclude_missing_target: rng.below(2) == 0,
            target_missing_code: target_levels,
            key_target,
            denom_lim: if rng.below(2) == 0 { Some(rng.below(4) as u64) } else { None },
        };
        Case {
            key_levels,
            keys,
            target_levels,
            target,
            use_keys_na: (0..n_keys).map(|_| rng.below(3) != 0).collect(),
            spec,
        }
    }

    fn encoded(case: &Case) -> Vec<EncodedVar<'static>> {
        let mut vars: Vec<EncodedVar<'static>> = case
            .keys
            .iter()
            .zip(&case.key_levels)
            .map(|(k, &l)| EncodedVar::from_u32(k.clone(), l + 1, l, None))
            .collect();
        vars.push(EncodedVar::from_u32(case.target.clone(), case.target_levels + 1, case.target_levels, None));
        vars
    }

    /// Plain brute force, written from the definitions: every record compared with every
    /// other; a cell's step is the first rule that applies to it.
    struct Brute<'c> {
        case: &'c Case,
    }

    impl Brute<'_> {
        fn key_of(&self, d: usize, r: usize) -> Vec<u32> {
            self.case.keys.iter().map(|k| k[d][r]).collect()
        }
        fn t_of(&self, d: usize, r: usize) -> u32 {
            self.case.target[d][r]
        }
        /// Records of dataset `d` with key `key` (and target `t` when given).
        fn count(&self, d: usize, key: &[u32], t: Option<u32>) -> u32 {
            (0..self.case.target[d].len())
                .filter(|&r| self.key_of(d, r) == key && t.is_none_or(|t| self.t_of(d, r) == t))
                .count() as u32
        }
        /// The step (1-5, 0 kept) removing cell (key, t) from a table whose cell count is `n`.
        fn step(&self, key: &[u32], t: u32, n: u32) -> u8 {
            let s = &self.case.spec;
            let missing_key = (0..key.len()).any(|k| !self.case.use_keys_na[k] && key[k] == self.case.key_levels[k]);
            let key_target = s.key_target.iter().any(|e| key[e.key] == e.key_level && e.target_level == t);
            if s.excluded_target[t as usize] {
                1
            } else if s.exclude_missing_target && t == s.target_missing_code {
                2
            } else if missing_key {
                3
            } else if key_target {
                4
            } else if s.denom_lim.is_some_and(|lim| n as u64 > lim) {
                5
            } else {
                0
            }
        }
        fn levels(&self) -> std::ops::Range<u32> {
            0..self.case.target_levels + 1
        }
        /// Kept records of dataset `d` (0 original, else the synthesis) with `key`.
        fn kept(&self, d: usize, key: &[u32]) -> u32 {
            self.levels()
                .map(|t| {
                    let n = self.count(d, key, Some(t));
                    if self.step(key, t, n) == 0 {
                        n
                    } else {
                        0
                    }
                })
                .sum()
        }
        fn original(&self, j: usize, r: usize) -> OriginalRecord {
            let (key, t) = (self.key_of(0, r), self.t_of(0, r));
            let (d_all, s_all) = (self.count(0, &key, None), self.count(j + 1, &key, None));
            let (d, s) = (self.count(0, &key, Some(t)), self.count(j + 1, &key, Some(t)));
            let (d_q, s_q) = (self.kept(0, &key), self.kept(j + 1, &key));
            let excluded = self.step(&key, t, d);
            let kept = excluded == 0;
            let s_own = if self.step(&key, t, s) == 0 { s } else { 0 };
            OriginalRecord {
                d_q,
                s_q,
                unique_orig: kept && d_q == 1,
                unique_in_syn: kept && d_q == 1 && s_all > 0,
                replicated_unique: kept && d_q == 1 && s_q == 1,
                rk: kept.then(|| 1.0 / d_q as f64),
                disclosive_orig: kept && d == d_all,
                disco: kept && s_all > 0 && s == s_all,
                cap: if kept && s_q > 0 { s_own as f64 / s_q as f64 } else { 0.0 },
                excluded,
            }
        }
        fn synthetic(&self, j: usize, r: usize) -> SyntheticRecord {
            let (key, t) = (self.key_of(j + 1, r), self.t_of(j + 1, r));
            let (d, s) = (self.count(0, &key, Some(t)), self.count(j + 1, &key, Some(t)));
            let (d_q, s_q) = (self.kept(0, &key), self.kept(j + 1, &key));
            let excluded = self.step(&key, t, s);
            let kept = excluded == 0;
            let d_own = if self.step(&key, t, d) == 0 { d } else { 0 };
            SyntheticRecord {
                s_q,
                d_q,
                replicated_unique: kept && s_q == 1 && d_q == 1,
                unique_syn_in_orig: kept && s_q == 1 && d_q >= 1,
                weap: if s_q > 0 && kept { s as f64 / s_q as f64 } else { 0.0 },
                tcap: (d_q > 0).then(|| d_own as f64 / d_q as f64),
                excluded,
            }
        }
    }

    #[test]
    fn every_record_matches_brute_force_for_any_thread_count_and_layout() {
        let mut rng = XorShift::new(0x5eed_2020);
        for _ in 0..300 {
            let case = random_case(&mut rng);
            let vars = encoded(&case);
            let n_keys = case.keys.len();
            let keys: Vec<usize> = (0..n_keys).collect();
            let brute = Brute { case: &case };
            let mut first: Option<(Vec<Vec<OriginalRecord>>, Vec<Vec<SyntheticRecord>>)> = None;
            // Cells held directly and sparsely, on 1-3 threads.
            for (threads, direct_cells) in
                [(1, DIRECT_CELLS), (2, DIRECT_CELLS), (3, DIRECT_CELLS), (1, 0), (2, 0), (3, 0)]
            {
                let workers = Workers::new(threads).unwrap();
                let request = RecordRequest {
                    vars: &vars,
                    keys: &keys,
                    use_keys_na: &case.use_keys_na,
                    target: n_keys,
                    spec: &case.spec,
                };
                let recs = records_with(&workers, &request, &never_stop, direct_cells).unwrap();
                if recs.index.n_q > 0 {
                    assert_eq!(matches!(recs.layout, Layout::Direct { .. }), direct_cells > 0);
                }
                assert_eq!(recs.n_syntheses(), case.target.len() - 1);
                let mut originals = Vec::new();
                let mut synthetics = Vec::new();
                for j in 0..recs.n_syntheses() {
                    let tables = recs.synthesis(&workers, j, &never_stop).unwrap();
                    let mut o = vec![OriginalRecord::placeholder(); recs.n_rows(0)];
                    tables.write_original(&workers, o.as_mut_slice(), &never_stop).unwrap();
                    for (r, got) in o.iter().enumerate() {
                        assert_eq!(*got, brute.original(j, r), "original record {r}, synthesis {j}");
                        assert_eq!(*got, tables.original(r));
                    }
                    let mut s = vec![SyntheticRecord::placeholder(); recs.n_rows(j + 1)];
                    tables.write_synthetic(&workers, s.as_mut_slice(), &never_stop).unwrap();
                    for (r, got) in s.iter().enumerate() {
                        assert_eq!(*got, brute.synthetic(j, r), "synthetic record {r}, synthesis {j}");
                        assert_eq!(*got, tables.synthetic(r));
                    }
                    originals.push(o);
                    synthetics.push(s);
                }
                match &first {
                    None => first = Some((originals, synthetics)),
                    Some(f) => {
                        assert!(f.0 == originals && f.1 == synthetics, "{threads} threads, {direct_cells} differ")
                    }
                }
            }
        }
    }

    #[test]
    fn pieces_and_stop_checks_cover_every_row_once() {
        let workers = Workers::new(2).unwrap();
        for n in [0, 1, PIECE_ROWS - 1, PIECE_ROWS, PIECE_ROWS + 1, 3 * PIECE_ROWS + 7] {
            let mut out = vec![usize::MAX; n];
            write_rows(&workers, out.as_mut_slice(), &never_stop, |_| {}, |r| r).unwrap();
            assert!(out.iter().enumerate().all(|(i, &v)| i == v), "{n} rows");
        }
        let many = PIECES_PER_STOP * PIECE_ROWS + 1;
        let mut out = vec![0u8; many];
        let stop = || true;
        let e = write_rows(&workers, out.as_mut_slice(), &stop, |_| {}, |_| 1u8).unwrap_err();
        assert!(e.is_interrupt());
    }

    #[test]
    fn a_sink_of_the_wrong_length_is_refused() {
        let case = Case {
            key_levels: vec![2],
            keys: vec![vec![vec![0, 1, 1], vec![1, 1]]],
            target_levels: 2,
            target: vec![vec![0, 1, 1], vec![1, 0]],
            use_keys_na: vec![true],
            spec: ExclusionSpec::none(3, 2),
        };
        let vars = encoded(&case);
        let workers = Workers::new(1).unwrap();
        let request = RecordRequest { vars: &vars, keys: &[0], use_keys_na: &[true], target: 1, spec: &case.spec };
        let recs = records(&workers, &request, &never_stop).unwrap();
        assert!(recs.synthesis(&workers, 1, &never_stop).is_err());
        let tables = recs.synthesis(&workers, 0, &never_stop).unwrap();
        let mut short = vec![SyntheticRecord::placeholder(); 1];
        assert!(tables.write_synthetic(&workers, short.as_mut_slice(), &never_stop).is_err());
        let mut long = vec![OriginalRecord::placeholder(); 4];
        assert!(tables.write_original(&workers, long.as_mut_slice(), &never_stop).is_err());
        // Key 1: two original records (both level 1) and two synthetic (levels 1 and 0).
        let r = tables.original(1);
        assert_eq!((r.d_q, r.s_q, r.cap, r.disclosive_orig, r.disco), (2, 2, 0.5, true, false));
    }

    impl OriginalRecord {
        fn placeholder() -> Self {
            OriginalRecord {
                d_q: u32::MAX,
                s_q: u32::MAX,
                unique_orig: false,
                unique_in_syn: false,
                replicated_unique: false,
                rk: Some(-1.0),
                disclosive_orig: false,
                disco: false,
                cap: -1.0,
                excluded: 9,
            }
        }
    }
    impl SyntheticRecord {
        fn placeholder() -> Self {
            SyntheticRecord {
                s_q: u32::MAX,
                d_q: u32::MAX,
                replicated_unique: false,
                unique_syn_in_orig: false,
                weap: -1.0,
                tcap: None,
                excluded: 9,
            }
        }
    }
}
