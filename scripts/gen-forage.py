#!/usr/bin/env python3
# Generates a dense native domain for the size figure of `topoplan check` (docs/classes.md): a
# numeric forage game grounded into one action per value combination, as GOAP libraries' numeric
# state is when it is made finite. 6 places, hunger and gold in 0..20: Forage at each place for
# every (hunger, gold) below 20 (2,400 actions, two effects each), Eat for every gold 1..20 and
# hunger 1..10 (200), Walk between places (30), Rest (1): 2,631 actions, three NPC classes. Every
# variable is set by hundreds of actions, so its domain-action graph has ~10^5 edges.
#   scripts/gen-forage.py > forage.toml
import sys

P, H, G = 6, 21, 21
out = sys.stdout
out.write('[domain]\nname = "forage"\n')
out.write('\n[[variable]]\nname = "place"\nvalues = [' + ', '.join(f'"p{i}"' for i in range(P)) + ']\n')
for v, n in (("hunger", H), ("gold", G)):
    out.write(f'\n[[variable]]\nname = "{v}"\nvalues = [' + ', '.join(f'"{v}{i}"' for i in range(n)) + ']\n')
names = {"forager": [], "eater": []}


def action(name, cost, pre, post, prevail=None):
    out.write(f'\n[[action]]\nname = "{name}"\ncost = {cost}\n')
    out.write('pre = { ' + ', '.join(f'{k} = "{v}"' for k, v in pre.items()) + ' }\n')
    out.write('post = { ' + ', '.join(f'{k} = "{v}"' for k, v in post.items()) + ' }\n')
    if prevail:
        out.write('prevail = { ' + ', '.join(f'{k} = "{v}"' for k, v in prevail.items()) + ' }\n')


for p in range(P):
    for h in range(H - 1):
        for g in range(G - 1):
            n = f"Forage-p{p}-h{h}-g{g}"
            action(n, 1 + p, {"hunger": f"hunger{h}", "gold": f"gold{g}"},
                   {"hunger": f"hunger{h + 1}", "gold": f"gold{g + 1}"}, {"place": f"p{p}"})
            names["forager"].append(n)
for g in range(1, G):
    for h in range(1, 11):
        n = f"Eat-g{g}-h{h}"
        action(n, 1, {"hunger": f"hunger{h}", "gold": f"gold{g}"},
               {"hunger": f"hunger{h - 1}", "gold": f"gold{g - 1}"})
        names["eater"].append(n)
for a in range(P):
    for b in range(P):
        if a != b:
            n = f"Walk-p{a}-p{b}"
            action(n, 2, {"place": f"p{a}"}, {"place": f"p{b}"})
            names["forager"].append(n)
            names["eater"].append(n)
action("Rest", 1, {"hunger": "hunger1"}, {"hunger": "hunger0"})
names["eater"].append("Rest")
for c, acts in names.items():
    out.write(f'\n[[class]]\nname = "{c}"\nactions = [' + ', '.join(f'"{a}"' for a in acts) + ']\n')
out.write('\n[[class]]\nname = "everyone"\nactions = [' +
          ', '.join(f'"{a}"' for a in names["forager"] + names["eater"][:200] + ["Rest"]) + ']\n')
out.write('\n[[instance]]\nname = "get-rich"\nclass = "forager"\n'
          'init = { place = "p0", hunger = "hunger0", gold = "gold0" }\ngoal = { gold = "gold5" }\n')
