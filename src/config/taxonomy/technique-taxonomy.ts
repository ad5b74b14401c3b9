import type { Taxonomy, TaxonomyItem } from '../../domain/taxonomy.js';
import { TAXONOMY_REFERENCES } from './taxonomy-references.js';
import { UNETHICAL_STRATEGIES } from './unethical-strategies.js';

const ZENG = 'Zeng et al. 2024';
const WANG = 'Wang et al. 2019';
const BOTH = `${ZENG}; ${WANG}`;

/** An item: id, name, definition, source. */
const item = (id: string, name: string, definition: string, source: string): TaxonomyItem => ({ id, name, definition, source });

/**
 * `techniques`: the ethical techniques of Zeng et al.'s 40 (their unethical ones are among
 * UNETHICAL_STRATEGIES), with Persuasion-for-Good strategies merged where they name the same thing
 * and added where they do not (self-modeling, inquiry). Names follow the sources; every definition
 * is written for pmiyc.
 */
const TECHNIQUES: readonly TaxonomyItem[] = [
  item(
    'evidence-based-persuasion',
    'Evidence-based persuasion',
    'Supports the claim with evidence the listener could check: data, studies, documented facts or cases.',
    ZENG,
  ),
  item('logical-appeal', 'Logical appeal', 'Argues by reasoning: causes and consequences, comparisons or steps that lead from premises to the claim.', BOTH),
  item('expert-endorsement', 'Expert endorsement', 'Cites people with relevant expertise who hold or support the view.', ZENG),
  item('non-expert-testimonial', 'Non-expert testimonial', 'Cites the experience or opinion of ordinary people who are not experts.', ZENG),
  item(
    'authority-endorsement',
    'Authority endorsement',
    'Cites institutions or recognised bodies (governments, agencies, well-known organisations) that support the view, or their credibility.',
    `${ZENG}; ${WANG} (Credibility appeal)`,
  ),
  item('social-proof', 'Social proof', 'Points out that many people, or people like the listener, already hold the view or act on it.', ZENG),
  item(
    'injunctive-norm',
    'Injunctive norm',
    'Says what people around the listener (family, peers, society) expect or approve of, to make agreement the expected thing.',
    ZENG,
  ),
  item('foot-in-the-door', 'Foot-in-the-door', 'Asks for agreement with a small, easy point first, then builds on it toward the whole claim.', BOTH),
  item('door-in-the-face', 'Door-in-the-face', 'Asks for much more than wanted first, then retreats to the real claim so that it seems modest.', ZENG),
  item(
    'public-commitment',
    'Public commitment',
    'Asks the listener to state their agreement, or reminds them of a position they stated, so that changing back feels inconsistent.',
    ZENG,
  ),
  item('alliance-building', 'Alliance building', 'Presents the persuader and the listener as a team on the same side, working toward a shared goal.', ZENG),
  item('complimenting', 'Complimenting', "Praises the listener (their intelligence, fairness, openness) to build goodwill toward the persuader's view.", ZENG),
  item('shared-values', 'Shared values', 'Shows that the claim follows from values or beliefs the listener already holds.', ZENG),
  item(
    'relationship-leverage',
    'Relationship leverage',
    'Draws on a bond between persuader and listener (trust, history, friendship) as a reason to agree.',
    ZENG,
  ),
  item('loyalty-appeal', 'Loyalty appeal', 'Asks the listener to agree out of loyalty to the persuader, a group or a shared past.', ZENG),
  item('favor', 'Favor', 'Asks the listener to agree as a personal favour to the persuader.', ZENG),
  item('negotiation', 'Negotiation', 'Proposes a trade or a middle ground: partial agreement on some terms in return for concessions on others.', ZENG),
  item('encouragement', 'Encouragement', 'Tells the listener they are capable of the change or decision and supports their confidence in making it.', ZENG),
  item('affirmation', 'Affirmation', "Acknowledges and validates the listener's feelings, concerns or good points before or while making the case.", ZENG),
  item(
    'positive-emotion-appeal',
    'Positive emotion appeal',
    'Evokes hope, pride, joy or relief linked to accepting the claim.',
    `${ZENG}; ${WANG} (Emotion appeal)`,
  ),
  item(
    'negative-emotion-appeal',
    'Negative emotion appeal',
    'Evokes worry, sadness or regret linked to rejecting the claim, in proportion to real consequences (exaggerated fear is fear-mongering).',
    `${ZENG}; ${WANG} (Emotion appeal)`,
  ),
  item(
    'storytelling',
    'Storytelling',
    'Tells a story or personal anecdote, true or illustrative, that carries the point.',
    `${ZENG}; ${WANG} (Personal story)`,
  ),
  item('self-modeling', 'Self-modeling', 'The persuader says they hold the view or act on it themselves, setting an example to follow.', WANG),
  item(
    'inquiry',
    'Inquiry',
    "Asks about the listener's views, reasons or situation, to engage them and tailor the next argument.",
    `${WANG} (Personal-, task- and source-related inquiry)`,
  ),
  item('anchoring', 'Anchoring', 'Sets a first number, comparison or reference point that makes the claim look reasonable beside it.', ZENG),
  item('priming', 'Priming', 'Brings up ideas, words or images first that make the claim easier to accept when it comes.', ZENG),
  item('framing', 'Framing', 'Presents the same facts in the light that favours the claim (gains rather than losses, a chosen comparison or emphasis).', ZENG),
  item(
    'confirmation-bias',
    'Confirmation bias',
    'Offers what fits what the listener already believes, so that the claim feels like a confirmation rather than a change.',
    ZENG,
  ),
  item(
    'reciprocity',
    'Reciprocity',
    'Gives something first (a concession, help, information) so that the listener feels inclined to give ground in return.',
    ZENG,
  ),
  item('compensation', 'Compensation', 'Offers a benefit that makes up for what the listener would give up by agreeing.', ZENG),
  item(
    'supply-scarcity',
    'Supply scarcity',
    'Points to a real limit on an opportunity or resource that makes acting on the claim more valuable now (an invented one is false urgency).',
    ZENG,
  ),
  item(
    'time-pressure',
    'Time pressure',
    'Points to a real deadline or a cost of waiting (an invented deadline, or pressure not to think it over, is false urgency).',
    ZENG,
  ),
  item(
    'reflective-thinking',
    'Reflective thinking',
    'Invites the listener to think the question through for themselves, with questions that lead them to reconsider.',
    ZENG,
  ),
];

/** `techniques`: the fuller taxonomy for a technique profile and the technique-effects analysis. */
export const TECHNIQUE_TAXONOMY: Taxonomy = {
  name: 'techniques',
  description:
    "Persuasion techniques modelled on Zeng et al.'s taxonomy and the Persuasion-for-Good strategies, with unethical strategies modelled on PersuSafety's. Names from the sources, definitions written for pmiyc.",
  references: [TAXONOMY_REFERENCES.zeng, TAXONOMY_REFERENCES.wang, TAXONOMY_REFERENCES.liu],
  techniques: TECHNIQUES,
  unethical: UNETHICAL_STRATEGIES,
};
