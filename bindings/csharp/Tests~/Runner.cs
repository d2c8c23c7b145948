// A small test runner for Mono without NUnit: runs every public static method marked [Test] of
// the test classes, prints one line per failure and "N passed, N failed", exits 1 on a failure.
using System;
using System.Diagnostics;
using System.Linq;
using System.Reflection;

namespace Topoplan.Tests
{
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class TestAttribute : Attribute { }

    public sealed class AssertionException : Exception
    {
        public AssertionException(string message) : base(message) { }
    }

    public static class Assert
    {
        public static void True(bool condition, string what)
        {
            if (!condition) throw new AssertionException(what);
        }

        public static void Equal<T>(T expected, T actual, string what)
        {
            if (!Equals(expected, actual))
                throw new AssertionException(what + ": expected " + expected + ", got " + actual);
        }

        public static void SequenceEqual(int[] expected, int[] actual, string what)
        {
            if (!expected.SequenceEqual(actual))
                throw new AssertionException(what + ": expected [" + string.Join(",", expected) + "], got [" +
                                             string.Join(",", actual) + "]");
        }

        /// <summary>Runs <paramref name="body"/>; it must throw a TopoplanException of that status whose message contains every fragment.</summary>
        public static TopoplanException Throws(Status status, Action body, params string[] fragments)
        {
            try
            {
                body();
            }
            catch (TopoplanException e)
            {
                if (e.Status != status)
                    throw new AssertionException("expected status " + status + ", got " + e.Status + ": " + e.Message);
                foreach (string f in fragments)
                    if (!e.Message.Contains(f))
                        throw new AssertionException("message '" + e.Message + "' lacks '" + f + "'");
                if (string.IsNullOrEmpty(e.Message)) throw new AssertionException("empty message");
                return e;
            }
            throw new AssertionException("expected a TopoplanException (" + status + "), none thrown");
        }
    }

    public static class Runner
    {
        public static int Main(string[] args)
        {
            if (args.Length < 1)
            {
                Console.Error.WriteLine("usage: tests.exe REPO_DIR [NAME_FILTER]");
                return 2;
            }
            Fixture.RepoDir = args[0];
            string filter = args.Length > 1 ? args[1] : null;
            int passed = 0, failed = 0;
            var tests = typeof(Runner).Assembly.GetTypes()
                .SelectMany(t => t.GetMethods(BindingFlags.Public | BindingFlags.Static))
                .Where(m => m.GetCustomAttributes(typeof(TestAttribute), false).Length > 0)
                .Where(m => filter == null || (m.DeclaringType.Name + "." + m.Name).Contains(filter))
                .OrderBy(m => m.DeclaringType.Name + "." + m.Name);
            foreach (MethodInfo m in tests)
            {
                string name = m.DeclaringType.Name + "." + m.Name;
                var watch = Stopwatch.StartNew();
                try
                {
                    m.Invoke(null, null);
                    ++passed;
                    Console.WriteLine("ok   " + name + " (" + watch.ElapsedMilliseconds + " ms)");
                }
                catch (TargetInvocationException e)
                {
                    ++failed;
                    Console.WriteLine("FAIL " + name + ": " + e.InnerException);
                }
            }
            Console.WriteLine(passed + " passed, " + failed + " failed");
            return failed == 0 && passed > 0 ? 0 : 1;
        }
    }
}
