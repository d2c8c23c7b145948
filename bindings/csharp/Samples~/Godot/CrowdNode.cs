// Godot 4 (.NET): the same CrowdDirector from a Node's _Process. The domain is read with Godot's
// FileAccess from res://; the native library is declared in the project's .csproj (docs/engines.md).
#if GODOT
using Godot;

namespace Topoplan.Samples
{
    /// <summary>Plans a crowd a frame budget at a time and prints the plans.</summary>
    public partial class CrowdNode : Node
    {
        /// <summary>The domain file in topoplan's native TOML format.</summary>
        [Export] public string DomainPath = "res://domains/western.toml";
        /// <summary>NPCs in the crowd.</summary>
        [Export] public int Npcs = 10000;

        CrowdDirector director;

        public override void _Ready()
        {
            director = new CrowdDirector(FileAccess.GetFileAsString(DomainPath), DomainPath, Npcs, 1);
        }

        public override void _Process(double delta)
        {
            if (director.Done) return;
            director.Frame(0.001, (npc, plan) => { if (npc < 3) GD.Print("NPC ", npc, ": ", plan); });
            if (director.Done) GD.Print(director.Solved, " of ", director.Count, " NPCs have a plan");
        }

        public override void _ExitTree()
        {
            if (director != null) director.Dispose();
        }
    }
}
#endif
