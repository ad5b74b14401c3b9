/** Full references of the built-in taxonomies' sources (docs/design/techniques.md lists the same). */
export const TAXONOMY_REFERENCES = {
  aristotle: 'Aristotle. Rhetoric. 4th century BCE.',
  cialdini: 'Cialdini, R. B. (1984). Influence: The Psychology of Persuasion. William Morrow.',
  greenBrock:
    'Green, M. C., & Brock, T. C. (2000). The role of transportation in the persuasiveness of public narratives. Journal of Personality and Social Psychology, 79(5), 701-721.',
  zeng: 'Zeng, Y., Lin, H., Zhang, J., Yang, D., Jia, R., & Shi, W. (2024). How Johnny Can Persuade LLMs to Jailbreak Them: Rethinking Persuasion to Challenge AI Safety by Humanizing LLMs. ACL 2024. arXiv:2401.06373.',
  wang: 'Wang, X., Shi, W., Kim, R., Oh, Y., Yang, S., Zhang, J., & Yu, Z. (2019). Persuasion for Good: Towards a Personalized Persuasive Dialogue System for Social Good. ACL 2019. arXiv:1906.06725.',
  liu: 'Liu, M., et al. (2025). LLM Can be a Dangerous Persuader: Empirical Study of Persuasion Safety in Large Language Models. arXiv:2504.10430.',
} as const;
