// Crowd: the planner chain after ℙ (run_fallback) and the retries of pending NPCs in slices of
// growing budget (resume_pending), on the calling thread between runs (crowd.h, "Planner chain").
#include <algorithm>
#include <cassert>
#include <memory>

#include "runtime/crowd/internal.h"

namespace topoplan {

using crowd_detail::now_ns;
using crowd_detail::project_key;
using crowd_detail::unpack_projected;

namespace {

// An NPC the host rewrote between frames into no input: a bad-input answer, no plan.
void answer_bad_input(const CrowdOutput& out, size_t i, bool handles, CrowdStats& stats) {
  out.status[i] = kCrowdBadInput;
  out.length[i] = 0;
  if (handles) out.handles[i] = PlanHandle{};
  ++stats.resumed;
}

// Writes a finished retry's answer for NPC i: its handle (when the batch takes handles, else
// null; an empty one when the plan was not stored), or its plan copied to the block's slice
// from `tail` on (moved past it) when it fits before slice_end; the status and the counters.
CrowdStatus write_retry_answer(const CrowdOutput& out, size_t i, const PlanHandle* handle,
                               PlanStatus ps, const ActionId* plan, int32_t len, int64_t slice_end,
                               int64_t& tail, CrowdStats& stats) {
  out.offset[i] = static_cast<uint32_t>(tail);
  if (handle != nullptr) out.handles[i] = *handle;
  const bool by_handle = handle != nullptr && !handle->empty();  // epochs start at 1
  const bool fits = by_handle || (len <= slice_end - tail && len <= 65535);
  const CrowdStatus st = crowd_detail::crowd_status(ps, kDetailNone, fits, true, false);
  if (st & kCrowdSolved) {
    if (!by_handle) {
      std::copy(plan, plan + len, out.actions.begin() + tail);
      tail += len;
    }
    ++stats.solved;
    ++stats.solved_fallback;
  } else if (st & kCrowdBufferTooSmall) {
    ++stats.buffer_too_small;
  } else if (st & kCrowdUnsolvable) {
    ++stats.unsolvable;
  } else {
    ++stats.no_plan;
  }
  out.status[i] = st;
  out.length[i] = static_cast<uint16_t>(std::min<int32_t>(len, 65535));
  ++stats.resumed;
  return st;
}

}  // namespace

PlanStatus Crowd::run_fallback(std::vector<std::unique_ptr<PlanScratch>>& scratch, uint32_t c,
                               int32_t level, std::span<const ValueId> s0,
                               std::span<const ValueId> goal, std::vector<ActionId>& plan,
                               int32_t* len) const {
  SearchLimits limits = def_.fallback_limits;
  limits.max_expansions = level < 0 ? std::min(def_.fallback_budget, limits.max_expansions)
                                    : retry_budget_[static_cast<size_t>(level)];
  bool limited = false;
  for (int32_t k = chain_begin_[c]; k < chain_begin_[c + 1]; ++k) {
    const auto slot = static_cast<size_t>(k);
    const HotPlanner& p = *fallback_[slot];
    if (scratch[slot] == nullptr) scratch[slot] = p.make_scratch();
    PlanOutcome o = p.plan(*scratch[slot], s0, goal, plan, len, limits);
    if (o.status == PlanStatus::kBufferTooSmall && *len > static_cast<int32_t>(plan.size())) {
      plan.resize(static_cast<size_t>(*len));
      o = p.plan(*scratch[slot], s0, goal, plan, len, limits);
    }
    switch (o.status) {
      case PlanStatus::kSolved: {
        const ActionId* to_global = hot_[c].to_global;
        for (int32_t j = 0; j < *len; ++j)
          plan[static_cast<size_t>(j)] = to_global[plan[static_cast<size_t>(j)]];
        return PlanStatus::kSolved;
      }
      case PlanStatus::kUnsolvable:
        return PlanStatus::kUnsolvable;
      case PlanStatus::kLimitReached:
        limited = true;
        break;
      default:
        break;
    }
  }
  *len = 0;
  return limited ? PlanStatus::kLimitReached : PlanStatus::kGaveUp;
}

void Crowd::resume_pending(const CrowdBatch& batch, const CrowdOutput& out, int64_t deadline_ns,
                           CrowdStats& stats) {
  const int32_t words = planner_->layout().words();
  PlanCache* cache = def_.cache;
  std::vector<uint64_t>& key = workers_[0].key;  // no task runs now: worker 0's is free
  const auto n = static_cast<int64_t>(batch.npc_class.size());
  const auto capacity = static_cast<int64_t>(out.actions.size());
  const int64_t block = def_.npcs_per_block;
  const bool handles = !out.handles.empty() && cache != nullptr;
  const auto levels = static_cast<int32_t>(retry_budget_.size());
  int64_t cur_block = -1, tail = 0;  // the free part of the current block's slice
  bool worked = false;               // a slice ran in this call
  size_t done = 0;
  while (done < pending_.size()) {
    Pending& p = pending_[done];
    // The first slice of a call always runs (a pass always ends); a later one only if its
    // expansions, at the measured rate, fit in what is left of the frame.
    if (worked && deadline_ns != 0) {
      const int64_t now = now_ns();
      const uint32_t pc = batch.npc_class[static_cast<size_t>(p.npc)];
      const double need =
          pc >= hot_.size() ? 0.0
                            : ns_per_expansion_ * static_cast<double>(stages(pc)) *
                                  static_cast<double>(retry_budget_[static_cast<size_t>(p.level)]);
      if (now >= deadline_ns || static_cast<double>(now) + need > static_cast<double>(deadline_ns))
        break;
    }
    const int64_t i = p.npc;
    if (i / block != cur_block) {
      cur_block = i / block;
      tail = p.tail;
    }
    const int64_t slice_end = capacity * std::min(n, (cur_block + 1) * block) / n;
    const uint32_t c = batch.npc_class[static_cast<size_t>(i)];
    const uint64_t* s = batch.init.data() + i * words;
    const uint64_t* g = batch.goal.data() + i * words;
    if (c >= hot_.size() || !crowd_detail::packed_in_range(*planner_, s, g)) {
      // The host rewrote the NPC between frames with a class or values that are no input.
      answer_bad_input(out, static_cast<size_t>(i), handles, stats);
      ++done;
      continue;
    }
    const ClassHot& h = hot_[c];
    unpack_projected<false>(h.fields, h.num_vars, s, g, resume_s0_.data(), resume_goal_.data());
    const auto nv = static_cast<size_t>(h.num_vars);
    int32_t len = 0;
    const int64_t t0 = deadline_ns != 0 ? now_ns() : 0;
    const PlanStatus ps =
        run_fallback(resume_scratch_, c, p.level, std::span<const ValueId>(resume_s0_.data(), nv),
                     std::span<const ValueId>(resume_goal_.data(), nv), resume_plan_, &len);
    worked = true;
    ++stats.retry_slices;
    if (ps == PlanStatus::kLimitReached && p.level + 1 < levels) {
      if (deadline_ns != 0) {  // every stage spent its budget: a rate per expansion
        const double spent = static_cast<double>(now_ns() - t0) /
                             (static_cast<double>(stages(c)) *
                              static_cast<double>(retry_budget_[static_cast<size_t>(p.level)]));
        ns_per_expansion_ = std::max(spent, 0.5 * ns_per_expansion_);
      }
      ++p.level;  // the same NPC, a larger slice (now, if it fits, else next frame)
      continue;
    }
    uint32_t id = PlanCache::kNoHandle;
    if (ps == PlanStatus::kSolved && cache != nullptr && len <= 65535 &&
        (handles || len <= cache->max_len_))
      id = cache->store(resume_plan_.data(), len);
    const PlanHandle handle =
        id != PlanCache::kNoHandle ? PlanHandle{id, cache->epoch_} : PlanHandle{};
    const CrowdStatus st =
        write_retry_answer(out, static_cast<size_t>(i), handles ? &handle : nullptr, ps,
                           resume_plan_.data(), len, slice_end, tail, stats);
    ++done;
    if (cache != nullptr && ps != PlanStatus::kLimitReached) {
      const uint64_t hash = project_key<false>(
          c, s, g, key_mask_.data() + static_cast<size_t>(c) * static_cast<size_t>(words), words,
          key.data());
      const CrowdStatus cached = crowd_detail::cached_status(st);
      (void)cache->insert(hash, static_cast<int32_t>(c), key.data(), resume_plan_.data(), len,
                          cached, id);
    }
  }
  // The rest of the current block's pending NPCs write after what this call added.
  for (size_t k = done; k < pending_.size() && pending_[k].npc / block == cur_block; ++k)
    pending_[k].tail = tail;
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(done));
}

}  // namespace topoplan
