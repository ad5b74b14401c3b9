import { z } from 'zod';
import { samplingSchema } from '../design-parts.js';

/**
 * What a protocol analysis study is (`pmiyc analyze --run <a protocol run> --judge MODEL`; docs/design/protocols.md,
 * "Another judge of a protocol run"), as stored in its `runs` row (`config.command = 'protocol-analysis'`): which
 * protocol run it labels again, with which judge, on which of its items, sampled how. A leaf module: the run config's
 * union reads it, and it imports no study code.
 */
const protocolAnalysisDesignSchema = z.object({
  /** The judge that labels every item again. */
  judge: z.string(),
  /** Items labelled: a seeded sample of the run's (`--sample N`); absent: all of them. */
  sample: z.number().int().min(1).optional(),
  sampling: samplingSchema,
});

export const protocolAnalysisConfigSchema = z.looseObject({
  command: z.literal('protocol-analysis'),
  /** The protocol of the run studied (`config.protocol` of that run). */
  protocol: z.string(),
  /** The protocol run whose items are labelled again. */
  studiedRun: z.string(),
  design: protocolAnalysisDesignSchema,
  /** Models that are simulated agents (labelled in every output). */
  simulated: z.array(z.string()).default([]),
});

export type ProtocolAnalysisDesign = z.infer<typeof protocolAnalysisDesignSchema>;
