import type { TeamCandidate } from '@contracts/projects';
import { LinkedRecords } from './LinkedRecords';
import { addTeamMember, getTeam, getTeamCandidates, removeTeamMember, type ProjectRecord, type TeamMember } from './projectsApi';

/** The project's team: the organisation's active users on it; the owner adds and removes them. */
export function TeamTab({ project, canEdit, onChanged }: { project: ProjectRecord; canEdit: boolean; onChanged: () => void }) {
  return (
    <LinkedRecords<TeamMember, TeamCandidate>
      projectId={project.id}
      canEdit={canEdit}
      onChanged={onChanged}
      getLinked={getTeam}
      getCandidates={getTeamCandidates}
      chooseLabel="Add a team member"
      noCandidates="Everyone in your organisation is on the team."
      candidateLabel={(c) => `${c.full_name} (${c.role})`}
      linkLabel="Add"
      link={addTeamMember}
      empty="No team members found"
      removeLabel={(m) => `Remove ${m.full_name}`}
      remove={(projectId, m) => removeTeamMember(projectId, m.user_id)}
      primary={(m) => m.full_name}
      secondary={(m) => `${m.role} · ${m.email}`}
    />
  );
}
