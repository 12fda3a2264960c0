//! The thread pool of one call, and the interrupt protocol: long work runs as a series
//! of chunks, each in the pool, and between chunks the *calling* thread asks the
//! caller's "should stop" callback (the R glue checks for Ctrl-C there, on R's thread).

use crate::error::{CoreError, CoreResult};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::ThreadId;

fn build_pool(n_threads: usize) -> CoreResult<rayon::ThreadPool> {
    pool_builder(n_threads)?.build().map_err(|e| CoreError::new(format!("could not start {n_threads} threads: {e}")))
}

fn pool_builder(n_threads: usize) -> CoreResult<rayon::ThreadPoolBuilder> {
    if n_threads == 0 {
        return Err(CoreError::new("internal: the number of threads must be at least 1"));
    }
    Ok(rayon::ThreadPoolBuilder::new().num_threads(n_threads))
}

/// A pool of `n_threads` threads of which the calling thread is one (it starts
/// `n_threads - 1`); `None` when the calling thread already works in a pool (a forked
/// child's copy of its parent's) or the threads cannot start (the calling thread then
/// stays a worker of the pool rayon shut down, and reaches other pools as any worker
/// of another pool does).
fn build_pool_with_caller(n_threads: usize) -> Option<rayon::ThreadPool> {
    pool_builder(n_threads).ok()?.use_current_thread().build().ok()
}

/// A callback that says whether the user asked to stop; called only on the thread that
/// called into the core, never inside the pool.
pub type ShouldStop<'a> = &'a dyn Fn() -> bool;

/// Never stops: for callers without interrupts (tests, benchmarks).
pub fn never_stop() -> bool {
    false
}

/// A pool of `n_threads` threads.
pub struct Workers {
    pool: Arc<rayon::ThreadPool>,
    /// Whether trips go through a thread of their own (see `PoolCache::stale_caller`).
    from_helper: bool,
}

/// Pools kept for the session, one per thread count: starting threads costs more than
/// a small call's counting. `pid` is the process that started them: `fork()` copies the
/// cache into the child but not the pools' threads, so a child that used them would wait
/// forever (R's `parallel::mclapply()`); a child starts pools of its own.
///
/// The first pool asked for through `Workers::with_caller` takes the calling thread
/// (R's main thread, for the glue) in as one of its workers, so that a trip to it runs
/// on the caller at once: a trip to a pool of other threads wakes one of them and then
/// the caller, which measured 0.3-0.4 ms a call on a 2-core virtual machine, a tenth
/// of a small call. A thread can work in one pool only, and only that thread is sure
/// to be inside rayon whenever that pool has work: the pool serves that thread and
/// thread count alone, and every other request gets a pool of its own threads.
struct PoolCache {
    pid: u32,
    pools: HashMap<usize, Arc<rayon::ThreadPool>>,
    /// The pool the caller works in: its thread, its thread count, the pool.
    with_caller: Option<(ThreadId, usize, Arc<rayon::ThreadPool>)>,
    /// Whether this process has tried to make one (done once, whatever came of it).
    caller_tried: bool,
    /// In a forked child, the thread that worked in a pool of the parent's (R's
    /// thread). It is still that pool's worker here, and a trip to any pool from it
    /// would wait on the parent's copied sleep state, whose locks a parent thread may
    /// have held at the fork (a hang of a few children in 20,000, reproduced). Its trips
    /// are sent from a thread of their own instead, which waits on a lock of its own.
    stale_caller: Option<ThreadId>,
}

static POOLS: OnceLock<Mutex<PoolCache>> = OnceLock::new();

impl PoolCache {
    fn new(pid: u32) -> Self {
        PoolCache { pid, pools: HashMap::new(), with_caller: None, caller_tried: false, stale_caller: None }
    }

    /// The pool of `n_threads` threads for process `pid`, started on first use, and
    /// whether the calling thread must send its trips from a thread of its own; with
    /// `caller`, the calling thread's own pool when it has (or now gets) one of
    /// `n_threads`.
    fn get(&mut self, pid: u32, n_threads: usize, caller: bool) -> CoreResult<(Arc<rayon::ThreadPool>, bool)> {
        let me = std::thread::current().id();
        if self.pid != pid {
            // Another process (a forked child): the parent's pools have no threads here.
            // Dropping them would signal those threads through locks they may have held
            // at the fork: they are leaked instead (memory copied from the parent). The
            // caller still works in the parent's pool (its thread-local state was copied
            // too): it gets pools of threads, and sends its trips from a thread of its own.
            std::mem::forget(std::mem::take(&mut self.pools));
            if let Some((thread, _, pool)) = self.with_caller.take() {
                self.stale_caller = Some(thread);
                std::mem::forget(pool);
            }
            // A thread still in the parent's pool cannot join another (the try would
            // fail); any other thread may.
            self.caller_tried = self.stale_caller.is_some();
            self.pid = pid;
        }
        let from_helper = self.stale_caller == Some(me);
        Ok((self.pool(n_threads, caller && !from_helper, me)?, from_helper))
    }

    fn pool(&mut self, n_threads: usize, caller: bool, me: ThreadId) -> CoreResult<Arc<rayon::ThreadPool>> {
        if caller {
            if let Some((thread, n, pool)) = &self.with_caller {
                if *thread == me && *n == n_threads {
                    return Ok(Arc::clone(pool));
                }
            } else if !self.caller_tried {
                self.caller_tried = true;
                if let Some(pool) = build_pool_with_caller(n_threads) {
                    let pool = Arc::new(pool);
                    self.with_caller = Some((me, n_threads, Arc::clone(&pool)));
                    return Ok(pool);
                }
            }
        }
        if let Some(p) = self.pools.get(&n_threads) {
            return Ok(Arc::clone(p));
        }
        let pool = Arc::new(build_pool(n_threads)?);
        self.pools.insert(n_threads, Arc::clone(&pool));
        Ok(pool)
    }
}

/// The session's pool of `n_threads` threads for process `pid`; `shared` passes this
/// process's id, tests pretend another.
fn shared_pool(pid: u32, n_threads: usize, caller: bool) -> CoreResult<(Arc<rayon::ThreadPool>, bool)> {
    let cache = POOLS.get_or_init(|| Mutex::new(PoolCache::new(pid)));
    let mut cache = cache.lock().map_err(|_| CoreError::new("internal: the thread pool cache is poisoned"))?;
    cache.get(pid, n_threads, caller)
}

impl Workers {
    /// A new pool of its own.
    pub fn new(n_threads: usize) -> CoreResult<Self> {
        Ok(Workers { pool: Arc::new(build_pool(n_threads)?), from_helper: false })
    }

    /// The session's pool of `n_threads` threads, started on first use in this process.
    pub fn shared(n_threads: usize) -> CoreResult<Self> {
        let (pool, from_helper) = shared_pool(std::process::id(), n_threads, false)?;
        Ok(Workers { pool, from_helper })
    }

    /// As `shared`, but the calling thread works in the pool when it is the first to
    /// ask this way in this process and asks again with the same thread count (see
    /// `PoolCache`): for a caller that makes every call from one thread, which lives as
    /// long as the process (R's main thread).
    pub fn with_caller(n_threads: usize) -> CoreResult<Self> {
        let (pool, from_helper) = shared_pool(std::process::id(), n_threads, true)?;
        Ok(Workers { pool, from_helper })
    }

    /// The pool's number of threads.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `f` on the calling thread, a worker of this pool (R's, `with_caller`),
    /// while some of the pool's other threads look for work without sleeping: a call of
    /// many short trips (a small call's crossing: the encoding, the preparation, the
    /// passes) then does not wait, at each trip, for a sleeping thread to wake (tens of
    /// microseconds on a virtual machine). A thread stops looking when `f` returns or
    /// unwinds, or after `LOOK_FOR` without finding work (so that a long serial step,
    /// or an R error that jumps over `f`'s frames, leaves no thread spinning); at most
    /// one thread fewer than the machine's cores looks. Any other caller, or one
    /// thread, runs `f` as it is. For calls from outside any trip only (the glue's
    /// entry points): inside one, a looking job could be stolen before work of the
    /// caller's that it would then sit on.
    pub fn with_threads_awake<T>(&self, f: impl FnOnce() -> T) -> T {
        use std::sync::atomic::{AtomicBool, Ordering};
        let caller = match self.pool.current_thread_index() {
            Some(caller) if self.threads() > 1 && !self.from_helper => caller,
            _ => return f(),
        };
        let lookers = (self.threads() - 1).min(machine_cores().saturating_sub(1));
        /// Ends the looking when `f` returns or unwinds.
        struct Awake(Arc<AtomicBool>);
        impl Drop for Awake {
            fn drop(&mut self) {
                self.0.store(false, Ordering::Release);
            }
        }
        let awake = Awake(Arc::new(AtomicBool::new(true)));
        for _ in 0..lookers {
            let awake = Arc::clone(&awake.0);
            self.pool.spawn(move || {
                // Taken back by the calling thread itself (it waited on a trip with
                // nothing else to do), or started after `f` returned: nothing to do.
                if rayon::current_thread_index() == Some(caller) || !awake.load(Ordering::Acquire) {
                    return;
                }
                #[cfg(test)]
                tests::LOOKED.fetch_add(1, Ordering::SeqCst);
                #[cfg(test)]
                tests::LOOKING.fetch_add(1, Ordering::SeqCst);
                let mut found = std::time::Instant::now();
                while awake.load(Ordering::Acquire) {
                    if rayon::yield_now() == Some(rayon::Yield::Executed) {
                        found = std::time::Instant::now();
                    } else if found.elapsed() > LOOK_FOR {
                        break;
                    } else {
                        std::hint::spin_loop();
                    }
                }
                #[cfg(test)]
                tests::LOOKING.fetch_sub(1, Ordering::SeqCst);
            });
        }
        f()
    }

    /// Runs one chunk of work in the pool; the calling thread waits.
    pub fn run<T: Send>(&self, f: impl FnOnce() -> T + Send) -> T {
        // A worker of this pool (a trip within a trip) runs it at once: from a thread of
        // its own it would wait, unseen by rayon, for a worker that may be waiting too
        // (both sides of a `join` making trips, in a forked child).
        if !self.from_helper || self.pool.current_thread_index().is_some() {
            return self.pool.install(f);
        }
        // A thread that is no worker of any pool waits for the trip on a lock of its own.
        std::thread::scope(|scope| match scope.spawn(|| self.pool.install(f)).join() {
            Ok(out) => out,
            Err(panic) => std::panic::resume_unwind(panic),
        })
    }

    /// Runs `f` as one trip to the pool when `work_rows` is at most `one_trip_rows`
    /// (`ONE_TRIP_ROWS` but in tests), with no stop checks
    /// inside (such work takes a fraction of a second): a trip to a pool of other
    /// threads wakes one of them and then the caller (see `PoolCache`). Larger
    /// work runs on the calling thread, its chunks asking `should_stop` in between.
    pub fn call<T: Send>(
        &self,
        work_rows: usize,
        one_trip_rows: usize,
        should_stop: ShouldStop<'_>,
        f: impl FnOnce(ShouldStop<'_>) -> T + Send,
    ) -> T {
        if work_rows <= one_trip_rows {
            self.run(|| f(&never_stop))
        } else {
            f(should_stop)
        }
    }

    /// Runs one chunk, then asks whether to go on.
    pub fn chunk<T: Send>(&self, should_stop: ShouldStop<'_>, f: impl FnOnce() -> T + Send) -> CoreResult<T> {
        let out = self.run(f);
        stop_point(should_stop)?;
        Ok(out)
    }
}

/// The cores this process may use (its affinity and cgroup quota), read once: reading
/// the quota opens files.
fn machine_cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// How long a thread kept awake (`Workers::with_threads_awake`) looks for work before it
/// goes back to rayon's sleep: longer than the gaps between a small call's trips (the R
/// thread's steps between them take up to a few hundred microseconds).
const LOOK_FOR: std::time::Duration = std::time::Duration::from_millis(1);

/// Rows of counting up to which a call runs as one trip to the pool, without stop
/// checks: tens of milliseconds at most.
pub const ONE_TRIP_ROWS: usize = 1 << 21;

/// Rows of counting below which another thread costs more (waking it, splitting the
/// work, merging) than it saves.
pub const ROWS_PER_THREAD: usize = 1 << 14;

/// Rows below which a step of about a nanosecond a row (numbering ids, counting rows
/// by id) runs on the calling thread: split over datasets on two threads of a 2-core
/// virtual machine, such a step took longer (Adult's key ids 83 to 134 us, its rows by
/// q 60 to 87 us; bench/RESULTS.md, twenty-fifth session), the other thread's wake-up
/// and the cache lines it must fetch costing more than its half of the work.
pub const LIGHT_STEP_ROWS: usize = 1 << 20;

/// Threads worth using for `work_rows` rows of counting: at most `requested`, and one
/// per `ROWS_PER_THREAD` rows, so that small inputs run on fewer threads (as
/// data.table throttles). Results do not depend on the number of threads.
pub fn threads_for(requested: usize, work_rows: usize) -> usize {
    requested.min(work_rows / ROWS_PER_THREAD).max(1)
}

/// Consecutive runs of items whose costs add up to about `budget` (at least one item
/// each); the split depends only on the costs, never on the thread count.
pub fn chunks_by_cost(costs: &[usize], budget: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut sum = 0;
    for (i, &c) in costs.iter().enumerate() {
        // An empty item still costs a little: every item counts at least 1.
        sum += c.max(1);
        if sum >= budget {
            out.push(start..i + 1);
            start = i + 1;
            sum = 0;
        }
    }
    if start < costs.len() {
        out.push(start..costs.len());
    }
    out
}

/// `Err(Interrupted)` when the caller asked to stop.
pub fn stop_point(should_stop: ShouldStop<'_>) -> CoreResult<()> {
    if should_stop() {
        Err(CoreError::Interrupted)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_every_item_once_in_order() {
        let c = chunks_by_cost(&[3, 0, 5, 1, 1, 9, 2], 5);
        assert_eq!(c, vec![0..3, 3..6, 6..7]);
        assert!(chunks_by_cost(&[], 5).is_empty());
    }

    #[test]
    fn small_work_runs_on_fewer_threads() {
        assert_eq!(threads_for(8, 0), 1);
        assert_eq!(threads_for(8, ROWS_PER_THREAD - 1), 1);
        assert_eq!(threads_for(8, 3 * ROWS_PER_THREAD), 3);
        assert_eq!(threads_for(2, 100 * ROWS_PER_THREAD), 2);
    }

    #[test]
    fn small_calls_run_in_one_trip_without_stop_checks() {
        let w = Workers::new(1).unwrap();
        let stop = || true;
        // Small: the chunks inside never see the caller's stop request.
        assert_eq!(w.call(ONE_TRIP_ROWS, ONE_TRIP_ROWS, &stop, |s| w.chunk(s, || 3)), Ok(3));
        // Large: they do.
        assert_eq!(w.call(ONE_TRIP_ROWS + 1, ONE_TRIP_ROWS, &stop, |s| w.chunk(s, || 3)), Err(CoreError::Interrupted));
    }

    #[test]
    fn another_process_starts_pools_of_its_own_and_leaks_the_old_ones() {
        // A cache of its own, so that the test does not touch the session's.
        let mut cache = PoolCache::new(1);
        let pool = |cache: &mut PoolCache, pid| cache.get(pid, 2, false).unwrap().0;
        let parent = pool(&mut cache, 1);
        assert!(Arc::ptr_eq(&parent, &pool(&mut cache, 1)));
        // The "child" (pid 2) gets a new pool; the parent's is forgotten, never dropped,
        // so the cache's reference to it is still counted.
        let child = pool(&mut cache, 2);
        assert!(!Arc::ptr_eq(&parent, &child));
        assert_eq!(Arc::strong_count(&parent), 2);
        assert_eq!(child.install(rayon::current_num_threads), 2);
        assert!(Arc::ptr_eq(&child, &pool(&mut cache, 2)));
    }

    /// Threads looking for work in `with_threads_awake` now, and ever (only its test
    /// calls it).
    pub(super) static LOOKING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    pub(super) static LOOKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

    /// The caller's pool keeps its other thread looking for work while `f` runs: its
    /// trips give the same results, a panic in `f` reaches the caller, and the thread
    /// stops looking once `f` has returned or unwound. Pools the caller does not work
    /// in, and one thread, run `f` as it is.
    #[test]
    fn threads_stay_awake_while_the_caller_runs_and_no_longer() {
        use rayon::prelude::*;
        use std::sync::atomic::Ordering;
        let stopped = || {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
            while LOOKING.load(Ordering::SeqCst) != 0 {
                assert!(std::time::Instant::now() < deadline, "a thread still looks for work after the call");
                std::thread::yield_now();
            }
        };
        // A thread of its own, which works in the pool it makes.
        std::thread::spawn(move || {
            let workers = Workers { pool: Arc::new(build_pool_with_caller(2).unwrap()), from_helper: false };
            for _ in 0..20 {
                let sum = workers.with_threads_awake(|| {
                    let first = workers.run(|| (0..10_000u64).into_par_iter().sum::<u64>());
                    let (a, b) = workers.run(|| rayon::join(|| first + 1, || first + 2));
                    // The other thread comes to look for work (once it has woken).
                    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
                    while LOOKED.load(Ordering::SeqCst) == 0 && std::time::Instant::now() < deadline {
                        std::thread::yield_now();
                    }
                    (a, b)
                });
                assert_eq!(sum, (49_995_001, 49_995_002));
                stopped();
            }
            assert!(LOOKED.load(Ordering::SeqCst) > 0, "no thread ever looked for work");
            // A caller that outlasts `LOOK_FOR` without trips: the thread stops looking
            // before the caller returns.
            workers.with_threads_awake(|| {
                std::thread::sleep(LOOK_FOR * 20);
                stopped();
            });
            let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                workers.with_threads_awake(|| workers.run(|| panic!("in the call")))
            }));
            assert!(unwound.is_err());
            stopped();
            assert_eq!(workers.run(|| (0..100u64).into_par_iter().sum::<u64>()), 4_950);
        })
        .join()
        .unwrap();
        // Not the caller's pool: nothing looks.
        let others = Workers::new(2).unwrap();
        assert_eq!(others.with_threads_awake(|| LOOKING.load(Ordering::SeqCst)), 0);
    }

    /// The first caller's pool runs its trips on the caller, and is handed to that
    /// thread and thread count only; the same thread asking for another count, another
    /// thread, or the thread in a "forked child" (where its thread-local state still
    /// names the parent's pool) get pools of their own threads, and every one of them
    /// works. In the "child", the old caller's trips go through a thread of their own.
    #[test]
    fn the_first_caller_works_in_its_own_pool_and_no_other() {
        fn sum(pool: &rayon::ThreadPool) -> u64 {
            use rayon::prelude::*;
            pool.install(|| (0..10_000u64).into_par_iter().sum::<u64>())
        }
        // A thread of its own: it stays a worker of the pool after the test.
        std::thread::spawn(|| {
            let mut cache = PoolCache::new(1);
            let me = std::thread::current().id();
            let (pool, helper) = cache.get(1, 2, true).unwrap();
            assert!(!helper);
            assert_eq!(pool.install(|| std::thread::current().id()), me);
            assert_eq!(pool.install(rayon::current_num_threads), 2);
            assert_eq!(sum(&pool), 49_995_000);
            assert!(Arc::ptr_eq(&pool, &cache.get(1, 2, true).unwrap().0));
            // Another count: threads of its own, which the caller waits for.
            let (other, _) = cache.get(1, 3, true).unwrap();
            assert_ne!(other.install(|| std::thread::current().id()), me);
            assert_eq!(sum(&other), 49_995_000);
            // Another thread asking for the same count: not the caller's pool.
            let callers_pool = Arc::clone(&pool);
            let from_elsewhere = std::thread::spawn(move || {
                let mut cache = cache;
                let (pool, helper) = cache.get(1, 2, true).unwrap();
                assert!(!helper && !Arc::ptr_eq(&pool, &callers_pool));
                assert_ne!(pool.install(|| std::thread::current().id()), std::thread::current().id());
                (sum(&pool), cache)
            });
            let (total, mut cache) = from_elsewhere.join().unwrap();
            assert_eq!(total, 49_995_000);
            // A "child": the caller is still a worker of the parent's pool, so its own
            // pool cannot be made; it gets one of threads, reached through a thread of
            // its own, and so does every later "child".
            for pid in [2, 3] {
                let (child, helper) = cache.get(pid, 2, true).unwrap();
                assert!(helper && !Arc::ptr_eq(&child, &pool));
                let workers = Workers { pool: Arc::clone(&child), from_helper: helper };
                let (sent_from, ran_on) =
                    workers.run(|| (std::thread::current().id(), rayon::current_thread_index().is_some()));
                assert!(sent_from != me && ran_on);
                assert_eq!(workers.run(|| sum(&child)), 49_995_000);
                // Trips within a trip, from both sides of a join: each runs on the
                // worker that makes it (from threads of their own, the two workers
                // waited for each other).
                let (done, finished) = std::sync::mpsc::channel();
                let nested = Workers { pool: Arc::clone(&child), from_helper: helper };
                std::thread::spawn(move || {
                    let pool = Arc::clone(&nested.pool);
                    let both = nested.run(|| rayon::join(|| nested.run(|| sum(&pool)), || nested.run(|| sum(&pool))));
                    let _ = done.send(both);
                });
                let both = finished.recv_timeout(std::time::Duration::from_secs(30));
                assert_eq!(both, Ok((49_995_000, 49_995_000)), "trips within a trip waited for each other");
                assert!(Arc::ptr_eq(&child, &cache.get(pid, 2, true).unwrap().0));
            }
        })
        .join()
        .unwrap();
    }

    // The only test that uses the session's cache: a test running beside it could hold
    // the cache's lock when it forks. It forks twice: after the parent used a pool of
    // threads, and after it worked in a pool of its own (`with_caller`), whose child
    // sends its trips from a thread of its own.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_forked_child_can_use_the_shared_pool() {
        use rayon::prelude::*;
        let parent = Workers::shared(2).unwrap();
        assert_eq!(parent.run(rayon::current_num_threads), 2);
        let child_runs = || {
            let sum = |w: Workers| w.run(|| (0..10_000u64).into_par_iter().sum::<u64>());
            matches!(Workers::shared(2).map(sum), Ok(49_995_000))
                && matches!(Workers::with_caller(2).map(sum), Ok(49_995_000))
        };
        expect_child_runs(&child_runs);
        assert_eq!(parent.run(rayon::current_num_threads), 2);
        let caller = Workers::with_caller(2).unwrap();
        let me = std::thread::current().id();
        assert_eq!(caller.run(|| std::thread::current().id()), me);
        assert_eq!(caller.run(|| (0..10_000u64).into_par_iter().sum::<u64>()), 49_995_000);
        expect_child_runs(&|| {
            let helper = Workers::with_caller(2).map(|w| w.from_helper);
            child_runs() && helper == Ok(true)
        });
        assert_eq!(caller.run(|| std::thread::current().id()), me);
    }

    /// Forks; the child runs `f` and leaves with its result, the parent waits for it
    /// (30 s at most).
    #[cfg(target_os = "linux")]
    fn expect_child_runs(f: &dyn Fn() -> bool) {
        // SAFETY: the child only uses the pool cache, then leaves with _exit.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            let ran = f();
            unsafe { libc::_exit(if ran { 0 } else { 1 }) };
        }
        let mut status = 0;
        for _ in 0..600 {
            if unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) } == pid {
                assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "the child failed: {status}");
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, &mut status, 0);
        }
        panic!("the forked child did not finish within 30 s: it waited for the parent's threads");
    }

    #[test]
    fn zero_threads_is_an_internal_error() {
        assert!(Workers::new(0).is_err());
    }

    #[test]
    fn a_chunk_reports_the_stop_request() {
        let w = Workers::new(1).unwrap();
        assert_eq!(w.chunk(&never_stop, || 3).unwrap(), 3);
        assert_eq!(w.chunk(&|| true, || 3), Err(CoreError::Interrupted));
    }
}
