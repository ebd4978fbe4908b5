"""A fold plan in words, for a person with the real chain in hand: it has no numbers.

Every sentence is rendered here from the plan's data (``fold.guide``): the command line's
text, the sheets, the GIF, the viewer and the page take their words from these functions and
never read words back. A step counts corners to find its joint (from the corner turned last,
or from an end, whichever is fewer), says the two runs that meet there, the hands (the cube
before the corner and everything back to the end you hold stay still; the corner cube and
everything beyond it turn), which way in the table's words (``frame.TABLE``), then what to
check after the turn and what to do if a check fails. Cube numbers appear only in brackets,
to check by.

The words that name the parts of a step are the constants below: change one here and it
changes in every form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from snakecube.fold.guide import Chain, Check, Find, Guide, GuideStep, Jump, Slip, Start, slips_of
from snakecube.fold.wrong import Ask, Departure, Verdict
from snakecube.frame import TABLE

STEP = "Step"  # a step's title: "Step 3", "Step 3 of 10"
CHECK = "Check"  # what to see after the turn
IF_NOT = "If not"  # what to do when a check fails
CAREFUL = "Careful"  # a slip the checks cannot tell
START = "Start"
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}
WAY_WORDS = {  # fold --json's ways as the words say them
    "right": TABLE[(1, 0, 0)],
    "left": TABLE[(-1, 0, 0)],
    "away": TABLE[(0, 1, 0)],
    "towards": TABLE[(0, -1, 0)],
    "up": TABLE[(0, 0, 1)],
    "down": TABLE[(0, 0, -1)],
}


def ordinal(k: int) -> str:
    """'1st', '2nd', '3rd', '4th', ... '11th', '21st'.

    >>> [ordinal(k) for k in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    if 10 <= k % 100 <= 20:
        return f"{k}th"
    return ORDINALS.get(k % 10, f"{k}th").replace(str(k % 10), str(k), 1)


def title(number: int, of: int | None = None) -> str:
    """'Step 3', or 'Step 3 of 10'."""
    return f"{STEP} {number}" if of is None else f"{STEP} {number} of {of}"


def _end(origin: str) -> str:
    return "the end you hold" if origin == "held" else "the loose end"


def _cubes(names: Sequence[int]) -> str:
    """'cube 4' or 'cubes 4, 5 and 7'."""
    if len(names) == 1:
        return f"cube {names[0]}"
    return "cubes " + ", ".join(map(str, names[:-1])) + f" and {names[-1]}"


def find_words(find: Find, runs: tuple[int, int] | None = None) -> str:
    """Where a corner is, counted on the chain, with the runs that meet there."""
    said = f" ({meets_words(runs)})" if runs else ""
    if find.origin == "last":
        if find.corners == 0:
            return f"the same corner as in the step before{said}"
        way = (
            "on towards the loose end"
            if find.towards == "loose"
            else "back towards the end you hold"
        )
        which = "the next corner" if find.corners == 1 else f"the {ordinal(find.corners)} corner"
        return f"{which} {way}, from the corner you turned last{said}"
    return f"the {ordinal(find.corners)} corner from {_end(find.origin)}{said}"


def meets_words(runs: tuple[int, int]) -> str:
    return f"a run of {runs[0]} cubes meets one of {runs[1]} there"


def _run(run: int) -> str:
    if run == 1:
        return "the run you turned"
    if run == 2:
        return "the run after the one you turned"
    return f"the {ordinal(run)} run from the corner you turned"


def _corner_run(check: Check) -> str:
    """The run a check speaks of, when it names its corner counted from an end."""
    assert check.at is not None
    corner = f"the {ordinal(check.at.corners)} corner from {_end(check.at.origin)}"
    if check.run == 1:
        return f"the run beyond {corner} (on the loose side)"
    return f"the {ordinal(check.run)} run beyond {corner}"


def check_words(check: Check) -> str:
    """One check as a person reads it: 'the run you turned points up'."""
    if check.kind == "meets":
        where = "there" if check.at is None else f"at the {ordinal(check.at.corners)} corner"
        return f"a run of {check.meets[0]} cubes meets one of {check.meets[1]} {where}"
    if check.kind == "end":
        return f"{_end(check.end)} points {WAY_WORDS[check.points]}"
    run = _run(check.run) if check.at is None else _corner_run(check)
    if check.kind == "points":
        return f"{run} points {WAY_WORDS[check.points]}"
    h = check.level
    if h == 0:
        return f"the lowest cube of {run} is level with the end you hold"
    how = f"{abs(h)} cube{'s' if abs(h) > 1 else ''} {'above' if h > 0 else 'below'}"
    return f"the lowest cube of {run} is {how} the end you hold"


def question_words(check: Check) -> str:
    """A check asked as a question: 'Does the loose end point to the left?'"""
    said = check_words(check)
    for verb, ask in ((" points ", " point "), (" is ", " be ")):
        if verb in said:
            head, tail = said.split(verb, 1)
            if ask == " point ":
                return f"Does {head}{ask}{tail}?"
            return f"Is {head} {tail}?"
    return f"{said[0].upper()}{said[1:]}?"


def checks_words(step: GuideStep) -> str:
    """'Check: the run you turned points up; the loose end points to the left.'"""
    after = [check_words(c) for c in step.checks if c.kind != "meets"]
    return f"{CHECK}: " + "; ".join(after) + "." if after else ""


def turn_words(q: int) -> str:
    """'a quarter turn clockwise', 'a half turn (two quarter turns) anticlockwise'."""
    way = "clockwise" if q > 0 else "anticlockwise"
    turn = "a quarter turn" if abs(q) == 1 else "a half turn (two quarter turns)"
    return f"{turn} {way}"


def slip_words(slip: Slip) -> str:
    """A slip as a person would make it: 'turned the next corner on instead'."""
    if slip.kind == "other_way":
        return "turned it the other way"
    if slip.kind == "half_for_quarter":
        return "made a half turn instead of a quarter"
    if slip.kind == "quarter_for_half":
        way = "clockwise" if slip.quarter_turns > 0 else "anticlockwise"
        return f"made only a quarter turn ({way}) instead of a half"
    d = slip.corners
    if abs(d) == 1:
        which = "the next corner on, one too far" if d > 0 else "the corner before the right one"
    else:
        which = f"the corner {abs(d)} {'on from' if d > 0 else 'before'} the right one"
    return f"turned {which}"


def if_not_words(step: GuideStep) -> str:
    """What to do when a check fails: undo at once, and count again from an end."""
    return (
        f"{IF_NOT}: turn that same corner back the way it came, as far as you turned it (a "
        f"quarter or a half turn), then count again: {find_words(step.recount)}."
    )


def careful_words(step: GuideStep) -> str:
    """'' or the slips these checks cannot tell, said so that the person counts twice."""
    if not step.uncaught:
        return ""
    said = "; or ".join(slip_words(s) for s in step.uncaught)
    return f"{CAREFUL}: these checks would also hold if you {said}: count twice before you turn."


@dataclass(frozen=True, slots=True)
class StepWords:
    """One step's words, part by part (every form shows these; ``text`` joins them)."""

    title: str
    lift: str
    find: str
    hands: str
    check: str
    if_not: str
    careful: str
    jump: str
    close: str
    brackets: str

    def text(self) -> str:
        head = f"{self.title}: {self.lift}{self.find}. {self.hands}"
        parts = [head, self.check, self.if_not, self.careful, self.brackets]
        return " ".join(p for p in [*parts, self.jump, self.close] if p)

    def body(self) -> str:
        """The words without the title."""
        return self.text().split(": ", 1)[1]


def step_words(g: Guide, k: int, of: int | None = None) -> StepWords:
    """Step ``k`` (1-based) in words (titled 'Step k of n' with ``of``)."""
    s = g.steps[k - 1]
    look = WAY_WORDS[s.look].replace("to the ", "")
    hands = (
        "Left hand: hold the cube before that corner still (your side of it). Right hand: turn "
        f"the corner cube, and all beyond it, {turn_words(s.quarter_turns)} as you see it "
        f"looking along the chain into the corner (you look {look})"
    )
    if s.turned is not None and not any(
        c.kind == "points" and c.run == 1 and c.at is None for c in s.checks
    ):
        hands += f"; the run you turned ({s.turned[0]} cubes) then points {WAY_WORDS[s.turned[1]]}"
    lift = (
        "first lift the snake off the table and go on in the air from here: this turn swings "
        "cubes below the table top. Then find "
        if s.lift
        else ""
    )
    close = (
        f"Go slowly: the turning cubes pass close to cubes already in place [{_cubes(s.close)}]."
        if s.close
        else ""
    )
    return StepWords(
        title=title(k, of),
        lift=lift,
        find=find_words(s.find, s.runs),
        hands=hands + ".",
        check=checks_words(s),
        if_not=if_not_words(s),
        careful=careful_words(s),
        jump=jump_words(s.jump),
        close=close,
        brackets=f"[cubes {s.hold} | {s.corner}]",
    )


def jump_words(jump: Jump | None) -> str:
    """'' or the sentence that says a step goes back along the chain, and why."""
    if jump is None:
        return ""
    towards = "the end you hold" if jump.towards == "held" else "the loose end"
    head = f"A jump: this corner is {jump.back} corners back towards {towards}"
    if jump.reason == "made_way":
        return (
            f"{head}. It was turned at step {jump.step} so that the snake could pass, and now "
            "it turns on towards its place."
        )
    if jump.reason == "runs_into" and not jump.step:
        return (
            f"{head}. Turned when your hand passed it, before step {jump.passed}, the snake "
            "would have run into itself."
        )
    if jump.reason == "runs_into":
        return (
            f"{head}. Turned when your hand passed it, before step {jump.passed}, it would "
            f"have made the snake run into itself at step {jump.step}."
        )
    return (
        f"{head}: the planner found no walk of as few quarter turns that turns it when your "
        f"hand passes it, before step {jump.passed}."
    )


@dataclass(frozen=True, slots=True)
class StartWords:
    """The start's words: the opening line, one line per run of the flat start (from the
    held end), then which end to hold, how to count corners, what to do when a check fails,
    and where the table is."""

    intro: str
    runs: tuple[str, ...]
    rest: tuple[str, ...]

    def lines(self) -> list[str]:
        """As one list, the runs indented."""
        return [self.intro, *(f"  {r}" for r in self.runs), *self.rest]


def start_parts(g: Guide, picture: str = "the start picture") -> StartWords:
    """The start in words, part by part (``picture``: what the words point to)."""
    runs = tuple(
        f"run {r.number}, {r.cubes} cubes: {WAY_WORDS[r.points]} (cubes {r.first}-{r.last})"
        for r in g.start.runs
    )
    rest = (
        held_words(g.start),
        "A corner is a cube where the chain bends; the steps find each joint by counting "
        "corners, and the cube numbers in brackets and on the pictures are only there to check.",
        "After each turn, look at what the step says to check. If it does not match, turn that "
        "same corner back and count again from the end the step names; if you notice only "
        "later, 'Something doesn't match?' (snakecube fold --went-wrong K) finds the step.",
        table_words(g),
    )
    intro = f"{START}: lay the snake flat on the table, seen from above, as {picture} shows:"
    return StartWords(intro, runs, rest)


def start_words(g: Guide, picture: str = "the start picture") -> list[str]:
    """The start as lines (:func:`snakecube.fold.words.start_parts`), the runs indented."""
    return start_parts(g, picture).lines()


def held_words(start: Start) -> str:
    """Which end to hold, told by the runs a person counts from it."""
    cube = f"cube {start.held_cube}"
    if start.told is None:
        return (
            f"Hold either end in your left hand (the snake reads the same from both ends); it "
            f"stays where it is until the end [{cube}]."
        )
    mine, other, k = start.told
    first = "run is" if k == 1 else "runs are"
    told = (
        f"whose first {first} {mine} cubes long (from the other end: {other}; a corner cube "
        "counts in both its runs)"
    )
    return f"Hold in your left hand the end {told}; it stays where it is until the end [{cube}]."


def table_words(g: Guide) -> str:
    """Where the snake is while folding, and why."""
    s, p = g.start, g.plan
    if s.lift_before == 0:
        return (
            "The snake stays on the table: no step moves a cube below the table top (of the "
            "plans found, one that stays on the table was chosen)."
        )
    if s.table_turns is None:
        why = "no plan found that stays on the table"
    elif p.order == "walk" and s.table_turns <= p.quarter_turns:
        why = (
            f"the plan found that stays on the table moves your hand "
            f"{s.table_walk:g} times as far along the chain"
        )
    else:
        why = (
            f"staying on the table takes {s.table_turns} quarter turns instead of {p.quarter_turns}"
        )
    return (
        f"Before step {s.lift_before}, lift the snake off the table and go on in the "
        f"air: then cubes swing below the level of the table top, so they would hit the table "
        f"({why})."
    )


def order_words(g: Guide) -> str:
    """How the steps go along the chain, in one plain sentence."""
    if len(g.steps) < 2:
        return "There is one step."
    way = (
        "from the end you hold outwards"
        if g.walks_out
        else "from the loose end back towards the end you hold"
    )
    jumps = sum(1 for s in g.steps if s.jump is not None)
    said = (
        "each joint a few corners from the one before"
        if not jumps
        else f"with {jumps} jump{'s' if jumps > 1 else ''} back, each said at its step"
    )
    return f"The steps walk along the chain {way}, {said}."


def done_words(g: Guide) -> str:
    """The last frame's words."""
    return f"Done: {g.plan.quarter_turns} quarter turns."


def steps_in_words(g: Guide) -> list[str]:
    """The plan as a person does it: the start, one line per step, how the steps go."""
    lines = start_words(g)
    lines += [step_words(g, k).text() for k in range(1, len(g.steps) + 1)]
    lines.append(order_words(g))
    return lines


# -- the way back ----------------------------------------------------------------------------------
def undo_words(v: Verdict) -> list[str]:
    """The verdict of a 'Something doesn't match?' dialog, as lines."""
    if v.step == 0:
        if v.find is None:
            return ["Your snake is as the plan has it after its last step: it is folded."]
        made = (
            f"before {title(v.again).lower()}'s turn"
            if v.again > v.done
            else f"after {title(v.done).lower()}"
        )
        return [
            f"Nothing went wrong: your snake is as the plan has it {made}. Look again at the "
            f"checks of {title(v.again).lower()}: its corner is {find_words(v.find)}."
        ]
    assert v.slip is not None and v.find is not None
    lines = [f"{title(v.step)} went wrong: you {slip_words(v.slip)}."]
    lines.append(
        "Undo it with these turns, each corner counted from an end (looking along the chain "
        "into the corner from the side of the end you hold):"
    )
    for n, u in enumerate(v.undo, 1):
        corner = f"the {ordinal(u.at.corners)} corner from {_end(u.at.origin)}"
        lines.append(f"  {n}. {corner}: {turn_words(u.quarter_turns)}")
    lines.append(f"Then make {title(v.again).lower()} again: its corner is {find_words(v.find)}.")
    return lines


def dialog_words(node: Ask | Verdict) -> list[str]:
    """A question, or a verdict, as lines."""
    if isinstance(node, Verdict):
        return undo_words(node)
    return [question_words(node.check)]


def with_words(g: Guide) -> dict[str, Any]:
    """``fold --json``: the guide's data (``Guide.to_dict``) with its words: each step's
    (``steps[i]["words"]``), the start's and the order's."""
    out = g.to_dict()
    for k, step in enumerate(out["steps"], 1):
        step["words"] = step_words(g, k).text()
    out["start_words"] = start_words(g)
    out["order_words"] = order_words(g)
    return out


def dialog_dict(node: Ask | Verdict) -> dict[str, Any]:
    """A dialog (``fold.wrong``) as JSON, each question and verdict with its words."""
    if isinstance(node, Verdict):
        out = node.to_dict()
        out["verdict"]["words"] = undo_words(node)
        return out
    return {
        "ask": node.check.to_dict(),
        "words": question_words(node.check),
        "yes": dialog_dict(node.yes),
        "no": dialog_dict(node.no),
    }


def numbered(tree: Ask | Verdict) -> tuple[list[Ask], list[Verdict]]:
    """A dialog's questions and verdicts, each in the order a reader meets them (breadth
    first): question k is ``asks[k - 1]``, verdict k ``verdicts[k - 1]``."""
    asks: list[Ask] = []
    verdicts: list[Verdict] = []
    queue: list[Ask | Verdict] = [tree]
    while queue:
        node = queue.pop(0)
        if isinstance(node, Ask):
            asks.append(node)
            queue += [node.yes, node.no]
        else:
            verdicts.append(node)
    return asks, verdicts


def _leads(node: Ask | Verdict, asks: list[Ask], verdicts: list[Verdict]) -> str:
    if isinstance(node, Ask):
        return f"question {next(k for k, a in enumerate(asks, 1) if a is node)}"
    return f"answer {next(k for k, v in enumerate(verdicts, 1) if v is node)}"


QUESTION_KEY = (
    "The picture shows the snake when the answer is yes: the run asked about blue and "
    "hatched, with an arrow the way it points; the corner it is counted from outlined in "
    "green; the end you hold ringed in black."
)


def question_line(ask: Ask, asks: list[Ask], verdicts: list[Verdict]) -> str:
    """'Question 3: Does the loose end point up? Yes: question 5. No: answer 2.'"""
    k = next(k for k, a in enumerate(asks, 1) if a is ask)
    return (
        f"Question {k}: {question_words(ask.check)} Yes: {_leads(ask.yes, asks, verdicts)}. "
        f"No: {_leads(ask.no, asks, verdicts)}. ({QUESTION_KEY})"
    )


def verdict_label(v: Verdict, verdicts: list[Verdict]) -> str:
    return f"Answer {next(k for k, w in enumerate(verdicts, 1) if w is v)}:"


HIDDEN = "(hidden)"  # a pointer's cube that other cubes hide from the camera


def pointer_words(origin: str, counted: bool) -> str:
    """The words of a picture's pointer (short: they stand on the picture): the cube a step
    counts from ('count from here') or the end you hold ('held end')."""
    if not counted:
        return "held end"
    return "count from here" if origin != "held" else "held end: count from here"


WRONG_INTRO = "Look at your snake as it is now (turn nothing yet) and answer:"


def wrong_title(step: int) -> str:
    """'Something doesn't match at step 4?'"""
    return f"Something doesn't match at {title(step).lower()}?"


def go_words(v: Verdict, steps: int) -> str:
    """The button that goes back to the step to make next: 'Go to step 3'."""
    return f"Go to {title(v.again).lower()}" if v.again <= steps else "Go to the end"


def start_lead(g: Guide) -> str:
    """The start's opening where its runs are listed under the picture (the page)."""
    return (
        f"{START}: lay the snake flat on the table, seen from above, as this picture shows "
        f"(its {len(g.start.runs)} runs are listed under it)."
    )


# -- a shape against the plan: snakecube check ----------------------------------------------------
def _from_end(chain: Chain, rank: int) -> str:
    at = chain.at(rank)
    return f"the {ordinal(at.corners)} corner from {_end(at.origin)}"


def _slip_of(plan: tuple[int, int], made: tuple[int, int]) -> Slip | None:
    """The usual slip that turns ``plan`` into ``made`` (corner rank, quarter turns), if any."""
    for slip in slips_of(plan[0], plan[1], 10**6):
        if (plan[0] + slip.corners, slip.quarter_turns) == made:
            return slip
    return None


def departure_words(
    g: Guide, d: Departure, turns: bool = True, fold_command: str = "snakecube fold SNAKE"
) -> list[str]:
    """Where a person's turns (``turns``) or shape depart from the plan, in the person's
    terms: the step, the corner counted from an end, the slip when it is a usual one, and
    the turns that undo it (``fold_command``: the command that asks the way back)."""
    chain, n = g.chain, len(g.steps)
    yours = "your turns" if turns else "your shape"
    if d.ran_into:
        head = f"your turn {d.ran_into} runs the snake into itself: it cannot be made"
    else:
        head = ""
    if d.step == 0:
        if d.done:
            return [
                f"{yours} follow the plan to its end: the snake is folded"
                if turns
                else f"{yours} is the plan's end: the snake is folded"
            ]
        if turns:
            made = _steps_made(g, d.followed)
            lines = [head] if head else []
            nxt = g.steps[made] if made < n else None
            go_on = (
                f"; go on with {title(made + 1).lower()}: its corner is "
                f"{find_words(chain.from_end(nxt.rank), nxt.runs)}"
                if nxt is not None
                else ""
            )
            return [*lines, f"{yours} follow the plan up to {title(made).lower()} of {n}{go_on}"]
        if not d.differ:
            return [f"{yours} is the plan's"]
        first = _from_end(chain, d.differ[0])
        return [f"{yours} is not the plan's: a corner the plan never turns differs, {first}"]
    assert d.plan is not None
    rank, q = d.plan
    step = g.steps[d.step - 1]
    lines = [head] if head else []
    lines.append(
        f"{yours} depart from the plan at {title(d.step).lower()}"
        if turns
        else f"{yours} departs from the plan at {title(d.step).lower()}"
    )
    lines.append(
        f"the plan turns {_from_end(chain, rank)} ({meets_words(step.runs)}), {turn_words(q)}"
    )
    if d.made is not None:
        said = f"you turned {_from_end(chain, d.made[0])}, {turn_words(d.made[1])}"
        slip = _slip_of(d.plan, d.made)
        lines.append(said + (f": you {slip_words(slip)}" if slip is not None else ""))
    elif not turns:
        lines.append("in your shape that corner is not as the plan leaves it")
    if not turns and len(d.differ) > 1:
        lines.append(
            "corners not as the plan leaves them: "
            + ", ".join(_from_end(chain, r) for r in d.differ[:8])
            + (" ..." if len(d.differ) > 8 else "")
        )
    if d.undo:
        lines.append("undo your turns from there, each corner counted from an end:")
        lines += [
            f"  {k}. the {ordinal(u.at.corners)} corner from {_end(u.at.origin)}: "
            f"{turn_words(u.quarter_turns)}"
            for k, u in enumerate(d.undo, 1)
        ]
        lines.append(
            f"then make {title(d.step).lower()} again: its corner is "
            f"{find_words(chain.from_end(rank), step.runs)}"
        )
    elif not turns:
        lines.append(
            f"to find the turns that undo it, answer a few questions: {fold_command} "
            f"--went-wrong {d.step}"
        )
    return lines


def _steps_made(g: Guide, quarters: int) -> int:
    """How many whole steps ``quarters`` quarter turns of the plan make."""
    made, at = 0, 0
    for s in g.steps:
        at += abs(s.quarter_turns)
        if at > quarters:
            break
        made += 1
    return made


PLAN_KEY = (
    "Each step is drawn before and after, framed on the joint to turn, seen as you see it "
    "sitting at the table: from the front-right, above the table, unless its caption says "
    "from the front-left or from higher above; beside them, the whole snake small, the "
    "close-up's frame dashed on it. The pale cubes are the ones you hold still (the end you "
    "hold ringed in black, the cube at the joint outlined thick: green in colour); the darkest "
    "cube, not hatched (dark red), is the one you turn: it spins in place on the joint, and "
    "the hatched cubes (blue) turn with it. The thick black line is the joint between them, "
    "both cubes at the joint carry their numbers (only to check by: the real snake has none), "
    "and the black arrow shows the turn. On the start too, the end you hold is pale and "
    "ringed in black. Thin arrows with words point to the cube to count corners from ('count "
    "from here') and to the end you hold ('held end'), or the way to them when they are off "
    "the picture."
)
