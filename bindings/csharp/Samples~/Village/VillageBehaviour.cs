// Unity: a component that runs the village's agents, one AgentWorld.Update per Update(). The
// domain is a TextAsset (examples/agents/village.toml imported as text). A game would move its
// characters on the StartAction events and call ActionFinished / ActionFailed when their
// animations end; here the director plays the engine (VillageDirector.cs).
#if UNITY_5_3_OR_NEWER
using UnityEngine;

namespace Topoplan.Samples
{
    /// <summary>Runs the village and logs what the first agents do.</summary>
    public sealed class VillageBehaviour : MonoBehaviour
    {
        /// <summary>examples/agents/village.toml as a TextAsset.</summary>
        public TextAsset village;
        /// <summary>Agents in the village (villagers and thieves in turn).</summary>
        public int agents = 10000;
        /// <summary>Share of the agents that sense a random fact each frame.</summary>
        public float sense = 0.05f;
        /// <summary>Agents whose events are logged.</summary>
        public int logged = 2;

        VillageDirector director;
        System.Action<AgentEvent> log;  // made once: a lambda per frame would allocate per frame

        void Start()
        {
            director = new VillageDirector(village.text, village.name, agents, sense, 1);
            log = e =>
            {
                if (e.Agent < logged) Debug.Log(director.World.Describe(e));
            };
        }

        void Update()
        {
            AgentUpdateStats s = director.Frame(log);
            if (director.FrameNumber % VillageDirector.DayFrames == 0)
                Debug.Log("village: " + s.Planned + " plans this frame, " + director.Reached + " goals reached so far");
        }

        void OnDestroy()
        {
            if (director != null) director.Dispose();
        }
    }
}
#endif
