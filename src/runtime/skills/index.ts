/**
 * Skills: the catalog and per-agent enablement, the user library and its jobs, the walk that
 * reads a skill's files, and the skills as the model opens them.
 */
export { SKILL_LIMITS } from './skill-files.js';
export { requestSkillInstall } from './skill-install-requests.js';
export { SkillUse } from './skill-use.js';
export { agentSkillDetail, checkSummaryFor, skillEntryView } from './skill-views.js';
export { SkillService } from './skills.js';
