// The C# side of bench.sh: the batch and the calls of bench.c through the package, timed in
// thread CPU time (clock_gettime through libc, as bench.c), or with "agents" first the village
// loop of Tests~/village.c through Samples~/Village/VillageDirector.cs. Not a test: a measurement.
//   bench.exe DOMAIN NPCS
//   bench.exe agents VILLAGE AGENTS FRAMES SENSE SEED THREADS WARMUP
using System;
using System.Runtime.InteropServices;
using Topoplan;

static unsafe class Bench
{
    [StructLayout(LayoutKind.Sequential)]
    struct Timespec { public long Sec, Nsec; }

    [DllImport("libc")] static extern int clock_gettime(int clock, out Timespec t);

    static double CpuSeconds()
    {
        Timespec t;
        clock_gettime(3 /* CLOCK_THREAD_CPUTIME_ID */, out t);
        return t.Sec + 1e-9 * t.Nsec;
    }

    static ulong Lcg(ref ulong x)
    {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        return x >> 33;
    }

    // The village: ns per agent per update (the update call) and per frame (the engine's calls
    // included), both over the frames after WARMUP, and the event hash village.c prints.
    static int Agents(string[] a)
    {
        var inv = System.Globalization.CultureInfo.InvariantCulture;
        int agents = int.Parse(a[2]), frames = int.Parse(a[3]), threads = int.Parse(a[6]), warmup = int.Parse(a[7]);
        string text = System.IO.File.ReadAllText(a[1]);
        using (var village = new Topoplan.Samples.VillageDirector(text, a[1], agents, double.Parse(a[4], inv),
                                                                  ulong.Parse(a[5]), threads))
        {
            village.Clock = CpuSeconds;
            double frameSeconds = 0, updateAtWarmup = 0;
            for (int f = 0; f < frames; ++f)
            {
                if (f == warmup) updateAtWarmup = village.UpdateSeconds;
                double t0 = CpuSeconds();
                village.Frame();
                if (f >= warmup) frameSeconds += CpuSeconds() - t0;
            }
            double per = (double)(frames - warmup) * agents;
            Console.WriteLine(string.Format(inv, "cs agents {0:F1}\ncs agents-frame {1:F1}\ncs agents-checksum {2:x16} {3}",
                                            (village.UpdateSeconds - updateAtWarmup) * 1e9 / per,
                                            frameSeconds * 1e9 / per, village.EventHash, village.Events));
        }
        return 0;
    }

    static int Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "agents") return Agents(args);
        using (PlanningTask task = PlanningTask.Load(args[0]))
        using (var planner = new CrowdPlanner(task))
        using (var crowd = new Crowd(planner))
        {
            int n = int.Parse(args[1]);
            int vars = task.NumVariables, instances = task.NumInstances;
            var b = new CrowdBuffers(planner, n);
            var problems = new Problem[instances];
            for (int k = 0; k < instances; ++k) problems[k] = task.Instance(k);
            var state = new int[vars];
            ulong x = 1;
            for (int i = 0; i < n; ++i)
            {
                Problem p = problems[(int)(Lcg(ref x) % (ulong)instances)];
                Array.Copy(p.Init, state, vars);
                int changes = (int)(Lcg(ref x) % 3);
                for (int k = 0; k < changes; ++k)
                {
                    int v = (int)(Lcg(ref x) % (ulong)vars);
                    state[v] = (int)(Lcg(ref x) % (ulong)task.DomainSize(v));
                }
                b.Set(i, p.NpcClass, state, p.Goal);
            }
            CrowdStats stats = crowd.Plan(b);  // warm-up
            const int reps = 3;
            double t0 = CpuSeconds();
            for (int r = 0; r < reps; ++r) stats = crowd.Plan(b);
            double crowdNs = (CpuSeconds() - t0) * 1e9 / ((double)reps * n);
            long sum = 0;
            for (int i = 0; i < n; ++i) sum += (b.Status[i] & (ushort)CrowdStatus.Solved) != 0 ? b.Length[i] : 0;

            // The door alone: a batch of one NPC (the first), many times.
            var one = new CrowdBuffers(planner, 1, b.Actions.Length);
            one.NpcClass[0] = b.NpcClass[0];
            Array.Copy(b.Init, one.Init, planner.Words);
            Array.Copy(b.Goal, one.Goal, planner.Words);
            const int calls = 200000;
            for (int i = 0; i < 1000; ++i) crowd.Plan(one);
            t0 = CpuSeconds();
            for (int i = 0; i < calls; ++i) crowd.Plan(one);
            double callNs = (CpuSeconds() - t0) * 1e9 / calls;

            Problem first = problems[0];
            using (var topo = new TopoPlanner(task, first.NpcClass))
            using (TopoScratch scratch = topo.CreateScratch())
            {
                var plan = new int[256];
                int len = 0;
                const int hot = 200000, named = 20000;
                for (int i = 0; i < 1000; ++i) topo.Plan(scratch, first.Init, first.Goal, plan, out len);
                t0 = CpuSeconds();
                for (int i = 0; i < hot; ++i) topo.Plan(scratch, first.Init, first.Goal, plan, out len);
                double topoNs = (CpuSeconds() - t0) * 1e9 / hot;
                PlanStats ps;
                string message;
                for (int i = 0; i < 100; ++i) task.Plan("topo", first, null, plan, out ps, out message);
                t0 = CpuSeconds();
                for (int i = 0; i < named; ++i) task.Plan("topo", first, null, plan, out ps, out message);
                double planNs = (CpuSeconds() - t0) * 1e9 / named;
                Console.WriteLine("cs call {0:F1}\ncs crowd {1:F1}\ncs topo {2:F1}\ncs plan {3:F1}\ncs checksum {4} {5} {6}",
                                  callNs, crowdNs, topoNs, planNs, stats.Solved, sum, len);
            }
        }
        return 0;
    }
}
