// Statuses, the exception that carries them, UTF-8 strings across the boundary, and the handles.
using System;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;

namespace Topoplan
{
    /// <summary>The C API's <c>topoplan_status</c> codes.</summary>
    public enum Status
    {
        /// <summary>Success: a plan was found, the plan is valid.</summary>
        Ok = 0,
        /// <summary>Proven: no plan exists.</summary>
        Unsolvable = 1,
        /// <summary>A node, memory or time limit stopped the search: no proof.</summary>
        LimitReached = 2,
        /// <summary>The planner cannot decide this instance (no plan, no proof).</summary>
        GaveUp = 3,
        /// <summary>The planner refuses the domain (e.g. ℙ on non-unary actions).</summary>
        Unsupported = 4,
        /// <summary>An output buffer is too small; the size needed is reported.</summary>
        BufferTooSmall = 5,
        /// <summary>Validation: the plan is not valid.</summary>
        InvalidPlan = 6,
        /// <summary>No planner, instance or name of that name.</summary>
        NotFound = 7,
        /// <summary>A null argument, a size or id out of range, mismatched handles.</summary>
        InvalidArgument = 8,
        /// <summary>A bad file or text: the message holds "file:line: message".</summary>
        InputError = 9,
        /// <summary>The library ran out of memory.</summary>
        OutOfMemory = 10,
        /// <summary>A bug in the library: report it with the message.</summary>
        InternalError = 11,
    }

    /// <summary>
    /// A call into the library failed. <see cref="Exception.Message"/> is the library's own
    /// message ("file:line: message" for bad input) when it gave one, else the function and the
    /// status's name; <see cref="Status"/> is the C status.
    /// </summary>
    public sealed class TopoplanException : Exception
    {
        /// <summary>The C API's status of the failed call.</summary>
        public Status Status { get; private set; }

        /// <summary>Creates the exception for <paramref name="status"/> with <paramref name="message"/>.</summary>
        public TopoplanException(Status status, string message) : base(message)
        {
            Status = status;
        }
    }

    /// <summary>The library as loaded: versions and the planners it registers.</summary>
    public static class Library
    {
        /// <summary>The C ABI version these bindings were written against (TOPOPLAN_C_ABI_VERSION).</summary>
        public const uint BindingsAbiVersion = Native.AbiVersion;

        /// <summary><c>topoplan_c_abi_version()</c> of the library actually loaded.</summary>
        public static uint AbiVersion { get { return Native.topoplan_c_abi_version(); } }

        /// <summary>The library's version, e.g. "0.1.0".</summary>
        public static string Version { get { return Utf8.Get(Native.topoplan_version()); } }

        /// <summary>
        /// Throws <see cref="TopoplanException"/> (<see cref="Status.Unsupported"/>) when the
        /// loaded library's ABI version differs from these bindings': call it once at start-up.
        /// </summary>
        public static void CheckAbi()
        {
            uint loaded = AbiVersion;
            if (loaded != BindingsAbiVersion)
                throw new TopoplanException(Status.Unsupported,
                    "topoplan: the native library has C ABI version " + loaded +
                    ", these bindings expect " + BindingsAbiVersion);
        }

        /// <summary>The English name of a status ("ok", "unsolvable", ...).</summary>
        public static string StatusName(Status status)
        {
            return Utf8.Get(Native.topoplan_status_string((int)status));
        }

        /// <summary>The names of the registered planners ("auto", "topo", "astar", ...).</summary>
        public static string[] PlannerNames()
        {
            int n = Native.topoplan_num_planners();
            var names = new string[n];
            for (int i = 0; i < n; ++i) names[i] = Utf8.Get(Native.topoplan_planner_name(i));
            return names;
        }

        /// <summary>The one-line description of the planner called <paramref name="name"/>, or null.</summary>
        public static string PlannerDescription(string name)
        {
            int n = Native.topoplan_num_planners();
            for (int i = 0; i < n; ++i)
                if (Utf8.Get(Native.topoplan_planner_name(i)) == name)
                    return Utf8.Get(Native.topoplan_planner_description(i));
            return null;
        }
    }

    /// <summary>UTF-8 strings to and from the library, and the error buffer convention.</summary>
    internal static unsafe class Utf8
    {
        /// <summary>Bytes of an error buffer: the library truncates longer messages.</summary>
        internal const int ErrorSize = 1024;

        /// <summary>A NUL-terminated UTF-8 string the library owns, as a string (null for NULL).</summary>
        internal static string Get(IntPtr p)
        {
            if (p == IntPtr.Zero) return null;
            byte* b = (byte*)p;
            int n = 0;
            while (b[n] != 0) ++n;
            return Encoding.UTF8.GetString(b, n);
        }

        internal static string Get(byte* p) { return Get((IntPtr)p); }

        /// <summary>The string, NUL-terminated, as UTF-8 (allocates: for cold calls).</summary>
        internal static byte[] Z(string s)
        {
            if (s == null) return null;
            var bytes = new byte[Encoding.UTF8.GetByteCount(s) + 1];
            Encoding.UTF8.GetBytes(s, 0, s.Length, bytes, 0);
            return bytes;
        }

        /// <summary>Throws the exception of a failed call: its message, else the status's name.</summary>
        internal static void Check(int status, byte* error, string function)
        {
            if (status == (int)Status.Ok) return;
            throw Fail(status, error, function);
        }

        internal static TopoplanException Fail(int status, byte* error, string function)
        {
            string message = error != null ? Get(error) : null;
            if (string.IsNullOrEmpty(message))
                message = function + ": " + Library.StatusName((Status)status);
            return new TopoplanException((Status)status, message);
        }

        internal static TopoplanException Fail(Status status, string message)
        {
            return new TopoplanException(status, message);
        }
    }

    /// <summary>
    /// A handle the library created. Each holds a reference on the handles it was made from (a ℙ
    /// planner on its task, a crowd on its crowd planner and cache), so the library frees a
    /// parent only after its last child: disposing in any order is safe, and the finalizer
    /// (SafeHandle's) frees what was never disposed.
    /// </summary>
    public abstract class NativeHandle : SafeHandle
    {
        static long live;
        SafeHandle parent1, parent2;

        /// <summary>Handles created by this process and not yet freed by the library.</summary>
        public static long LiveCount { get { return Interlocked.Read(ref live); } }

        internal NativeHandle() : base(IntPtr.Zero, true) { }

        /// <summary>True when no native object is held.</summary>
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        /// <summary>Takes ownership of <paramref name="h"/>, made from the given parents (may be null).</summary>
        internal void Attach(IntPtr h, SafeHandle p1, SafeHandle p2)
        {
            bool added1 = false, added2 = false;
            try
            {
                if (p1 != null) p1.DangerousAddRef(ref added1);
                if (p2 != null) p2.DangerousAddRef(ref added2);
            }
            catch
            {
                if (added1) p1.DangerousRelease();
                Free(h);
                throw;
            }
            parent1 = added1 ? p1 : null;
            parent2 = added2 ? p2 : null;
            Interlocked.Increment(ref live);
            SetHandle(h);
        }

        /// <summary>Frees the native object, then lets go of the parents.</summary>
        protected override bool ReleaseHandle()
        {
            Free(handle);
            handle = IntPtr.Zero;
            Interlocked.Decrement(ref live);
            if (parent2 != null) parent2.DangerousRelease();
            if (parent1 != null) parent1.DangerousRelease();
            return true;
        }

        /// <summary>The C *_free function of this kind of handle.</summary>
        internal abstract void Free(IntPtr h);
    }

    // The handle of each kind of native object: its C *_free function.
    internal sealed class TaskHandle : NativeHandle { internal override void Free(IntPtr h) { Native.topoplan_task_free(h); } }
    internal sealed class AnalysisHandle : NativeHandle { internal override void Free(IntPtr h) { Native.topoplan_analysis_free(h); } }
    internal sealed class TopoHandle : NativeHandle { internal override void Free(IntPtr h) { Native.topoplan_topo_free(h); } }
    internal sealed class ScratchHandle : NativeHandle { internal override void Free(IntPtr h) { Native.topoplan_scratch_free(h); } }
    internal sealed class CrowdPlannerHandle : NativeHandle { internal override void Free(IntPtr h) { Native.topoplan_crowd_planner_free(h); } }
    internal sealed class PlanCacheHandle : NativeHandle { internal override void Free(IntPtr h) { Native.topoplan_plan_cache_free(h); } }
    internal sealed class CrowdHandle : NativeHandle { internal override void Free(IntPtr h) { Native.topoplan_crowd_free(h); } }

    /// <summary>Wraps a freshly created native pointer; frees it if wrapping fails.</summary>
    internal static class Handles
    {
        internal static T Wrap<T>(IntPtr h, SafeHandle p1 = null, SafeHandle p2 = null)
            where T : NativeHandle, new()
        {
            var handle = new T();
            handle.Attach(h, p1, p2);
            return handle;
        }
    }
}
