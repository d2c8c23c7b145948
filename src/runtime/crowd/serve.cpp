// Crowd: the batch loop. Blocks of NPCs are claimed from an atomic counter by whichever worker
// is free; each block writes only its own slice of the output, so the result does not depend on
// who ran it. The frame budget is checked after each claim of blocks (task_entry).
//
// A claim goes to one of three loops: serve_block (below: serve_npc, serve.h, for each NPC, on
// every path), serve_block_memo (memo.cpp: a warm one-word batch with the worker memos) or
// serve_block_cold (cold.cpp: a one-word batch without cache).
#include <algorithm>
#include <cassert>

#include "runtime/crowd/serve.h"

namespace topoplan {

using crowd_detail::kDefaultMemoShift;
using crowd_detail::now_ns;

void Crowd::task_entry(int32_t /*begin*/, int32_t /*end*/, int32_t worker, void* context) {
  Job& job = *static_cast<Job*>(context);
  Crowd& self = *job.crowd;
  assert(worker >= 0 && worker < self.def_.worker_count);
  Worker& w = self.workers_[static_cast<size_t>(worker)];
  const bool cache = self.def_.cache != nullptr;
  const bool handles = cache && !job.out->handles.empty();
  if (job.memo && (w.memo_cache != self.def_.cache || w.memo_stamp != job.memo_stamp ||
                   w.memo_epoch != job.memo_epoch)) {
    std::fill(w.memo.begin(), w.memo.end(), MemoEntry{});
    std::fill(w.handle_memo.begin(), w.handle_memo.end(), HandleMemoEntry{});
    w.memo_cache = self.def_.cache;
    w.memo_stamp = job.memo_stamp;
    w.memo_epoch = job.memo_epoch;
  }
  // With a deadline, claims start at one block and then take about kClaimNs of work (at the
  // rate of the previous claim, never more than a quarter of the time left, at most
  // kMaxClaim blocks): a warm block of 64 NPCs takes well under a microsecond, and a clock
  // read plus a contended add per block cost as much as its NPCs. Every claimed block is
  // served, so the served blocks stay a prefix.
  constexpr int64_t kClaimNs = 10'000;
  constexpr int64_t kMaxClaim = 64;
  int64_t chunk = job.chunk;
  int64_t claimed_at = job.deadline_ns != 0 ? now_ns() : 0;
  const int64_t workers = self.def_.worker_count;
  // Its home range first, then the others in turn; a range found exhausted stays so, so after
  // `job.ranges` failed claims every range is done.
  int32_t r = worker % job.ranges;
  for (int32_t failed = 0; failed < job.ranges;) {
    Job::Range& range = job.range[r];
    const int64_t b0 = range.next.fetch_add(chunk, std::memory_order_relaxed);
    if (b0 >= range.end) {
      ++failed;
      r = r + 1 == job.ranges ? 0 : r + 1;
      // Into another worker's range: a claim of its size left (below).
      const int64_t left = job.range[r].end - job.range[r].next.load(std::memory_order_relaxed);
      chunk = std::clamp<int64_t>(left / (4 * workers), 1, job.chunk);
      continue;
    }
    const int64_t b1 = std::min(b0 + chunk, range.end);
    if (job.one_word && job.memo && handles) {
      if (w.memo_shift == kDefaultMemoShift)
        self.serve_block_memo<true, kDefaultMemoShift>(w, job, b0, b1);
      else
        self.serve_block_memo<true, 0>(w, job, b0, b1);
    } else if (job.one_word && job.memo) {
      if (w.memo_shift == kDefaultMemoShift)
        self.serve_block_memo<false, kDefaultMemoShift>(w, job, b0, b1);
      else
        self.serve_block_memo<false, 0>(w, job, b0, b1);
    } else if (job.one_word && !cache) {
      self.serve_block_cold(w, job, b0, b1);  // the claim's NPCs grouped by class
    } else {
      for (int64_t b = b0; b < b1; ++b) {
        if (job.one_word && handles)
          self.serve_block<true, true, true>(w, job, b);
        else if (job.one_word)  // (a one-word batch without cache went to serve_block_cold)
          self.serve_block<true, true, false>(w, job, b);
        else if (handles)
          self.serve_block<false, true, true>(w, job, b);
        else if (cache)
          self.serve_block<false, true, false>(w, job, b);
        else
          self.serve_block<false, false, false>(w, job, b);
      }
    }
    if (job.deadline_ns != 0) {
      const int64_t now = now_ns();
      if (now >= job.deadline_ns) break;
      const int64_t per_block = std::max<int64_t>((now - claimed_at) / (b1 - b0), 1);
      const int64_t target = std::min(kClaimNs, (job.deadline_ns - now) / 4);
      chunk = std::clamp<int64_t>(target / per_block, 1, kMaxClaim);
      claimed_at = now;
    } else if (workers > 1) {
      // Claims shrink towards the end of a range (a quarter of its blocks left per worker, at
      // most job.chunk): the first worker to run out waits at most for a small claim.
      chunk = std::clamp<int64_t>((range.end - b1) / (4 * workers), 1, job.chunk);
    }
  }
}

template <bool kOneWord, bool kCache, bool kHandles>
void Crowd::serve_block(Worker& w, const Job& job, int64_t block) const {
  static_assert(!kOneWord || kCache, "a one-word batch without cache is serve_block_cold's");
  Block b;
  begin_block<kOneWord, kCache, kHandles>(w, job, block, b);
  for (int64_t i = b.first; i < b.end; ++i) serve_npc<kOneWord, kCache, kHandles>(w, b, i);
  end_block(w, b, b.end - b.first);
}

}  // namespace topoplan
