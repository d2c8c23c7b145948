// The village sample as a console program (Mono, .NET): runs the village's agents for some
// frames, prints what the first agents did and a summary. bindings/csharp/test.sh compiles and
// runs it.
//   mono village.exe path/to/village.toml [AGENTS] [FRAMES] [SENSE] [SEED] [THREADS]
using System;
using System.IO;
using Topoplan;

namespace Topoplan.Samples
{
    /// <summary>The console program's entry point.</summary>
    public static class VillageConsole
    {
        /// <summary>Runs the village; 0 on success, 1 on a library error, 2 on bad arguments.</summary>
        public static int Main(string[] args)
        {
            if (args.Length < 1)
            {
                Console.Error.WriteLine("usage: village.exe path/to/village.toml [AGENTS] [FRAMES] [SENSE] [SEED] [THREADS]");
                return 2;
            }
            int agents, frames, threads;
            double sense;
            ulong seed;
            if (!Arg(args, 1, 1000, out agents) || !Arg(args, 2, 300, out frames) || !Arg(args, 5, 1, out threads) ||
                !double.TryParse(args.Length > 3 ? args[3] : "0.05", System.Globalization.NumberStyles.Float,
                                 System.Globalization.CultureInfo.InvariantCulture, out sense) ||
                !ulong.TryParse(args.Length > 4 ? args[4] : "1", out seed) || sense < 0 || sense > 1)
            {
                Console.Error.WriteLine("village.exe: AGENTS, FRAMES and THREADS are positive integers, SENSE in [0, 1], SEED an unsigned integer");
                return 2;
            }
            try
            {
                string text = File.ReadAllText(args[0]);
                using (var village = new VillageDirector(text, args[0], agents, sense, seed, threads))
                {
                    // The first two agents (a villager, a thief) tell their story for a day.
                    Action<AgentEvent> log = e =>
                    {
                        if (e.Agent < 2 && village.FrameNumber < VillageDirector.DayFrames)
                            Console.WriteLine("frame {0,3}: {1}", village.FrameNumber, village.World.Describe(e));
                    };
                    long planned = 0, broken = 0;
                    for (int f = 0; f < frames; ++f)
                    {
                        AgentUpdateStats s = village.Frame(log);
                        planned += s.Planned;
                        broken += s.Replans(ReplanReason.ConditionBroken);
                    }
                    Console.WriteLine("{0} agents, {1} frames: {2} events, {3} plans ({4} after a broken condition), " +
                                      "{5} actions started, {6} finished, {7} failed, {8} goals reached, {9} no-plan",
                                      agents, frames, village.Events, planned, broken, village.Started, village.Finished,
                                      village.Failed, village.Reached, village.NoPlan);
                    Console.WriteLine("event hash {0:x16}", village.EventHash);
                }
            }
            catch (IOException e)
            {
                Console.Error.WriteLine("village.exe: " + e.Message);
                return 1;
            }
            catch (TopoplanException e)
            {
                Console.Error.WriteLine("village.exe: " + e.Message);
                return 1;
            }
            return 0;
        }

        static bool Arg(string[] args, int index, int fallback, out int value)
        {
            value = fallback;
            return args.Length <= index || (int.TryParse(args[index], out value) && value > 0);
        }
    }
}
