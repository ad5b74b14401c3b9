import type { Taxonomy } from '../../domain/taxonomy.js';
import { TAXONOMY_REFERENCES } from './taxonomy-references.js';
import { UNETHICAL_STRATEGIES } from './unethical-strategies.js';

/**
 * `rhetoric`: a short taxonomy of classical appeals and a few well-known principles, for a quick
 * profile of a persuader (a judge has few labels to choose from). Definitions written for pmiyc.
 */
export const RHETORIC_TAXONOMY: Taxonomy = {
  name: 'rhetoric',
  description: 'Classical rhetorical appeals and a few principles of influence, with the unethical strategies of the techniques taxonomy.',
  references: [TAXONOMY_REFERENCES.aristotle, TAXONOMY_REFERENCES.cialdini, TAXONOMY_REFERENCES.greenBrock, TAXONOMY_REFERENCES.liu],
  techniques: [
    {
      id: 'logos',
      name: 'Logos',
      definition: 'Argues from reasons, facts, numbers or logical steps that lead to the claim.',
      examples: ['Fares cover only a fifth of running costs, so removing them costs less than it seems.'],
      source: 'Aristotle, Rhetoric',
    },
    {
      id: 'pathos',
      name: 'Pathos',
      definition: "Moves the listener's feelings (hope, sympathy, worry, pride) toward the claim.",
      examples: ['Think of the parent who can finally take the bus to a job interview.'],
      source: 'Aristotle, Rhetoric',
    },
    {
      id: 'ethos',
      name: 'Ethos',
      definition: 'Builds trust in the speaker or the sources: expertise, experience, fairness or good faith.',
      examples: ['I have worked on transit budgets for ten years, and I used to think the opposite.'],
      source: 'Aristotle, Rhetoric',
    },
    {
      id: 'kairos',
      name: 'Kairos',
      definition: 'Argues that now is the right moment: a recent event, a coming decision or a change that makes the claim timely.',
      examples: ['With the city budget voted next month, this is the moment to decide.'],
      source: 'classical rhetoric',
    },
    {
      id: 'narrative',
      name: 'Narrative',
      definition: 'Tells a story or an anecdote, about someone real or imagined, that carries the point.',
      examples: ['A friend of mine stopped driving when the fares went; she now saves a hundred a month.'],
      source: 'Green and Brock 2000',
    },
    {
      id: 'social-proof',
      name: 'Social proof',
      definition: 'Points out that many people, or people like the listener, already hold the view or act on it.',
      examples: ['Most cities that tried it have kept it.'],
      source: 'Cialdini, Influence',
    },
    {
      id: 'reciprocity',
      name: 'Reciprocity',
      definition: 'Concedes a point, offers something or makes a gesture first, so that the listener feels invited to give ground in return.',
      examples: ["You're right that it costs money; I grant that. Will you grant that cars cost the city too?"],
      source: 'Cialdini, Influence',
    },
    {
      id: 'commitment',
      name: 'Commitment and consistency',
      definition: 'Gets the listener to agree to something small or reminds them of what they said, then argues the claim follows from it.',
      examples: ['You said earlier that clean air matters to you; this is how a city gets it.'],
      source: 'Cialdini, Influence',
    },
  ],
  unethical: UNETHICAL_STRATEGIES,
};
