/**
 * Sentence templates for simulated debate speeches. Placeholders: {topic} (a noun phrase for the
 * motion), {side} and {opp} (position labels), {t1}/{t2} (key terms) and {name}. The first letter
 * of every filled sentence is capitalised afterwards, so templates may start with a placeholder.
 */

/** Templates grouped by their rhetorical role in a speech. */
export interface SentenceBank {
  openers: readonly string[];
  namedOpeners: readonly string[];
  claims: readonly string[];
  evidence: readonly string[];
  rebuttals: readonly string[];
  questions: readonly string[];
  conclusions: readonly string[];
}

/** The sentence bank used for speeches. */
export const SPEECH: SentenceBank = {
  openers: [
    'Let me begin with the heart of the matter: {topic} is ultimately a question about {t1}.',
    'I rise in defence of {side}, because {topic} deserves a clear answer rather than a comfortable one.',
    'My case for {side} rests on a few simple ideas, and the first of them is {t1}.',
    'Before anything else, we should be honest about what is really at stake in {topic}.',
    'Good debates start from facts, so let me start with what we know about {t1}.',
    'There is a tempting story about {topic}, and I want to explain why it is wrong.',
  ],
  namedOpeners: [
    'I am {name}, and I will argue that {side} is the more responsible answer to {topic}.',
    'Speaking as {name}, I want to make the case for {side} plainly and without hedging.',
  ],
  claims: [
    'The strongest reason to support {side} is that it takes {t1} seriously instead of treating it as an afterthought.',
    'Any honest account of {topic} has to start from {t1}, and the facts about {t1} point towards {side}.',
    'When we weigh the costs against the benefits, {side} delivers more of what people actually need.',
    '{side} is not a leap in the dark; it builds on what we already know about {t1} and {t2}.',
    'The real choice here is between a policy that manages risk and one that simply hopes for the best.',
    'At its core, {side} protects the people who have the least say in how {t1} is decided.',
    'What matters is not the elegance of a theory but whether it works in practice, and on {t1} it does.',
    'A sound position should survive its hardest case, and ours survives the hardest case of {t2}.',
    'Fairness is not an optional extra here, because the burden of {t2} falls on some groups far more than others.',
    'Every serious option carries trade-offs, yet only {side} is honest about them.',
  ],
  evidence: [
    'Look at the record on {t1} wherever change has been tried: the results were measurable and lasting.',
    'The experience with {t2} shows the same pattern, with early doubts giving way to clear gains.',
    'Independent studies of {t1} point in one direction, and it is not the direction {opp} suggests.',
    'Consider a concrete case: a community facing {t2} that acted early and avoided the worst outcomes.',
    'The numbers are not ambiguous; where the record on {t1} improves, trust and outcomes tend to improve with it.',
    'History offers a useful guide, because the debate over {t2} is not new and the lessons are on record.',
    'People who deal with {t1} every day report that the current approach is already failing them.',
    'Even the most cautious estimates suggest that the gains from acting on {t1} outweigh the costs within a few years.',
  ],
  rebuttals: [
    'Those defending {opp} will say the risks are exaggerated, but they have not explained {t2}.',
    'The case for {opp} rests on an assumption it never defends: that the problem of {t1} will sort itself out.',
    'It is tempting to accept {opp} because it sounds cautious, yet caution that ignores {t2} is just delay.',
    'We have heard that {side} would cost too much, but the cost of doing nothing about {t1} is far higher.',
    'The other side treats {t1} as a detail, when in fact it is the whole argument.',
    'If {opp} were right, we would expect to see real progress on {t2} by now, and we do not.',
    'My opponent appeals to common sense, but common sense is exactly what the evidence on {t1} overturns.',
  ],
  questions: [
    'So I ask the other side directly: what is your plan for {t1}?',
    'If not {side}, then what, and who pays the price while we wait?',
    'Can anyone seriously claim that the problems around {t2} will ease if we keep doing what we are doing?',
    'Why should the burden fall on those who had no part in creating the problem of {t1}?',
  ],
  conclusions: [
    'For all these reasons, I urge you to support {side}.',
    'The evidence, the principles and the practical stakes all point the same way: {side}.',
    'In the end, {topic} asks us to choose between comfort and responsibility, and {side} is the responsible choice.',
    'I leave you with a simple test: which position would you trust when things go wrong on {t1}? I trust {side}.',
    'We do not need certainty to act wisely, only the courage to follow the evidence, and it leads to {side}.',
  ],
};

/** Templates for summaries: {x} and {y} are the two positions, {t1}..{t3} key terms. */
export const SUMMARY = {
  openers: [
    'Summary: the debate on {topic} set {x} against {y}.',
    'Summary: two positions were argued on {topic}, {x} and {y}.',
    'In short, the exchange on {topic} came down to {x} versus {y}.',
  ],
  firstSide: [
    'The case for {x} centred on {t1}, arguing that acting now avoids larger costs later.',
    'Supporters of {x} stressed {t1} and claimed the evidence favours change.',
    'The {x} side argued that the question of {t1} is decisive and cited practical examples.',
  ],
  secondSide: [
    'The case for {y} focused on {t2}, warning about unintended consequences and cost.',
    'Supporters of {y} questioned the evidence and pointed to the risks around {t2}.',
    'The {y} side replied that {t2} matters more and that caution is justified.',
  ],
  closers: [
    'The main disagreement was over {t3}, which neither side fully resolved.',
    'Both sides agreed that the issue of {t3} matters but drew opposite conclusions from it.',
    'The key open question remains how to weigh {t3} against the risks each side raised.',
  ],
} as const;

/** One-sentence critiques for judge-style JSON fields such as `comments` or `reason`. */
export const CRITIQUES: readonly string[] = [
  'The argument for {side} was clear and well organised, but the point about {t1} needed stronger evidence.',
  'A persuasive case on {t1}, although the rebuttal of {opp} left {t2} largely unanswered.',
  'Good use of concrete examples, yet the conclusion claimed more than the evidence on {t2} supports.',
  'The speech engaged directly with {opp} and handled {t1} convincingly.',
  'Well structured and easy to follow, though it repeated the point about {t1} instead of developing it.',
  'The strongest moment was the analysis of {t2}; the weakest was a vague treatment of cost.',
];
