"""Writes web/sample-replay.jsonl: a small hand-made replay (a wizard and three goblins) in the
format of `topoplan sim --replay` (docs/web.md), with an extra field, an agent missing from the
header that names itself in its states, and a line type the viewer does not know.

  python3 tests/web/make_sample_replay.py
"""
import json, math, os, random
random.seed(3)
dt = 0.05
spots = [{"name":"north","x":0,"y":10},{"name":"south","x":0,"y":-10},{"name":"east","x":12,"y":0},
         {"name":"west","x":-12,"y":0},{"name":"well","x":3,"y":2}]
agents = [{"id":0,"name":"wizard","kind":"wizard"},{"id":1,"name":"goblin_1","kind":"goblin"},
          {"id":2,"name":"goblin_2","kind":"goblin"}]
names = {0:"wizard",1:"goblin_1",2:"goblin_2",3:"goblin_3"}
drives = ["health","mana","fatigue"]
lines = [{"type":"header","version":1,"scenario":"arena","selector":"udgoap","seed":1,"dt":dt,
          "world":{"width":30,"height":24},"spots":spots,"agents":agents,"drives":drives,
          "producer":"hand-written sample for the web tests (extra fields are allowed)"}]
pos = {0:[0.0,0.0],1:[0.0,10.0],2:[12.0,0.0]}
health = {0:100.0,1:30.0,2:30.0,3:30.0}
mana = 60.0; fatigue = 10.0
alive = {0:True,1:True,2:True}
events = []
def ev(tick, text, x=None, y=None):
    e = {"type":"event","tick":tick,"t":round(tick*dt,3),"text":text}
    if x is not None: e["x"]=x; e["y"]=y
    lines.append(e)
ev(0,"goblin_1 spawned at north",0,10); ev(0,"goblin_2 spawned at east",12,0)
N = 240
for tick in range(0, N+1, 2):
    t = round(tick*dt, 3)
    if tick == 60:
        pos[3] = [-12.0, 0.0]; alive[3] = True; ev(tick, "goblin_3 spawned at west", -12, 0)
    # wizard: targets nearest living goblin
    targets = [g for g in (1,2,3) if alive.get(g)]
    w = pos[0]
    if targets:
        g = min(targets, key=lambda k: math.dist(w, pos[k]))
        d = math.dist(w, pos[g])
        if mana < 15:
            action, goal = "drink_potion", "restore_mana"; mana += 6
        elif d > 4:
            action, goal = f"move_to({names[g]})", "kill_enemy"
            w[0] += (pos[g][0]-w[0])/d*0.35; w[1] += (pos[g][1]-w[1])/d*0.35
        else:
            action, goal = f"lightning({names[g]})", "kill_enemy"; mana -= 4
            health[g] -= 2.5
            if health[g] <= 0:
                alive[g] = False; ev(tick, f"{names[g]} died", round(pos[g][0],2), round(pos[g][1],2))
    else:
        action, goal = "rest", "recover"; mana = min(100, mana+2)
    fatigue = min(100, fatigue + 0.4)
    for g in (1,2,3):
        if not alive.get(g): continue
        d = math.dist(pos[g], w)
        if d > 1.5:
            pos[g][0] += (w[0]-pos[g][0])/d*0.6; pos[g][1] += (w[1]-pos[g][1])/d*0.6
            ga = "charge(wizard)"
        else:
            ga = "stab(wizard)"; health[0] -= 1.5
            if tick % 20 == 0: ev(tick, f"{names[g]} stabs the wizard", round(w[0],2), round(w[1],2))
        extra = {"kind":"goblin","name":names[g]} if g == 3 else {}  # not in the header: names itself
        lines.append({"type":"state","tick":tick,"t":t,"npc":g,**extra,"x":round(pos[g][0],3),"y":round(pos[g][1],3),
                      "action":ga,"goal":"kill_wizard","drives":{"health":round(health[g],1)}})
    lines.append({"type":"state","tick":tick,"t":t,"npc":0,"x":round(w[0],3),"y":round(w[1],3),"action":action,
                  "goal":goal,"drives":{"health":round(health[0],1),"mana":round(mana,1),"fatigue":round(fatigue,1)},
                  "utility":round(random.random(),3)})
    if tick == 100:
        lines.append({"type":"debug","tick":tick,"note":"a line type this viewer does not know: skipped"})
lines.append({"type":"end","tick":N,"t":round(N*dt,3),"result":{"winner":"wizard" if health[0]>0 else "goblins",
             "wizard_health":round(health[0],1),"goblins_killed":sum(1 for g in (1,2,3) if not alive.get(g,True)),"ticks":N}})
with open(os.path.join(os.path.dirname(__file__), "..", "..", "web", "sample-replay.jsonl"),"w") as f:
    for l in lines: f.write(json.dumps(l, ensure_ascii=False, separators=(",",":"))+"\n")
print(len(lines), lines[-1])
