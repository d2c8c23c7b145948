// A crowd's planning loop, engine-agnostic: the Unity and Godot components beside it call it
// once per frame. Load a domain, make the crowd planner, a plan cache and a crowd once; per
// frame, give the NPCs that need a plan a share of the frame's time; read the answers of the
// NPCs served this frame.
using System;
using System.Collections.Generic;
using Topoplan;

namespace Topoplan.Samples
{
    /// <summary>Plans for <see cref="Count"/> NPCs, a frame budget at a time.</summary>
    public sealed class CrowdDirector : IDisposable
    {
        readonly PlanningTask task;
        readonly CrowdPlanner planner;
        readonly PlanCache cache;
        readonly Crowd crowd;
        readonly CrowdBuffers buffers;
        readonly List<int> pending = new List<int>();
        readonly List<int> answered = new List<int>();
        long cursor;

        /// <summary>NPCs in the crowd.</summary>
        public int Count { get { return buffers.Count; } }
        /// <summary>NPCs with a plan so far.</summary>
        public int Solved { get; private set; }
        /// <summary>NPCs proved to have no plan so far.</summary>
        public int Unsolvable { get; private set; }
        /// <summary>True once every NPC of the batch has its answer.</summary>
        public bool Done { get; private set; }

        /// <summary>A crowd of <paramref name="npcs"/> NPCs over the domain text (native TOML).</summary>
        public CrowdDirector(string domainText, string domainName, int npcs, int seed)
        {
            Library.CheckAbi();
            task = PlanningTask.Parse(domainText, domainName);
            planner = new CrowdPlanner(task);
            cache = new PlanCache(planner, 1 << 14);
            crowd = new Crowd(planner, new CrowdOptions { Cache = cache });
            buffers = new CrowdBuffers(planner, npcs);
            // Each NPC takes one of the domain's instances: its class, its state, its goal.
            var rng = new Random(seed);
            for (int i = 0; i < npcs; ++i)
            {
                Problem p = task.Instance(rng.Next(task.NumInstances));
                buffers.Set(i, p.NpcClass, p.Init, p.Goal);
            }
        }

        /// <summary>
        /// Plans within <paramref name="budgetSeconds"/>; calls <paramref name="onPlan"/> for
        /// each NPC answered in this frame with its plan's action names joined by spaces.
        /// </summary>
        public void Frame(double budgetSeconds, Action<int, string> onPlan)
        {
            if (Done) return;
            long first = cursor;
            CrowdStats stats = crowd.PlanFrameHandles(buffers, ref cursor, budgetSeconds);
            // Answered this frame: the NPCs the cursor passed that are not pending, and the
            // pending NPCs of earlier frames that lost their Pending bit (a frame writes nothing
            // for the NPCs it does not reach: their entries keep what they held).
            answered.Clear();
            for (int k = pending.Count - 1; k >= 0; --k)
                if ((buffers.StatusOf(pending[k]) & CrowdStatus.Pending) == 0)
                {
                    answered.Add(pending[k]);
                    pending.RemoveAt(k);
                }
            for (long i = first; i < cursor; ++i)
            {
                if ((buffers.StatusOf((int)i) & CrowdStatus.Pending) != 0)
                    pending.Add((int)i);
                else
                    answered.Add((int)i);
            }
            foreach (int npc in answered)
            {
                CrowdStatus s = buffers.StatusOf(npc);
                if ((s & CrowdStatus.Solved) == 0)
                {
                    if ((s & CrowdStatus.Unsolvable) != 0) ++Unsolvable;
                    continue;
                }
                ++Solved;
                ReadOnlySpan<int> plan;
                if (!(buffers.Handles[npc].HasPlan && crowd.TryResolve(buffers.Handles[npc], out plan)))
                    plan = buffers.CopiedPlan(npc);
                if (onPlan != null)
                {
                    var names = new string[plan.Length];
                    for (int k = 0; k < plan.Length; ++k) names[k] = task.ActionName(plan[k]);
                    onPlan(npc, string.Join(" ", names));
                }
            }
            Done = stats.Complete;
        }

        /// <summary>Frees the native objects (in any order: each keeps what it needs alive).</summary>
        public void Dispose()
        {
            task.Dispose();
            planner.Dispose();
            cache.Dispose();
            crowd.Dispose();
        }
    }
}
