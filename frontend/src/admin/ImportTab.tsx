import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import * as api from "../api";
import { HubTokenNote } from "../components/HubTokenNote";
import { IconUpload } from "../components/icons";
import { ErrorBox, ProgressBar, formatBytes, formatDate, formatNumber } from "../components/ui";
import { DOMAINS } from "../lib/domains";
import { FORMATS, LABELS_AS, formatImportError, importFraction, isFinished } from "./importFormat";
import { MediaUpload } from "./MediaUpload";
import { StepPreview } from "./StepPreview";
import { StepRuleFields, ruleSummary } from "./StepRuleFields";

const POLL_MS = 700;

function ResultCounts({ result }: { result: Partial<api.ImportResult> }) {
  const items: Array<[string, number | undefined]> = [
    ["Rows", result.rows],
    ["Problems created", result.problems_created],
    ["Problems already there", result.problems_existing],
    ["Solutions created", result.solutions_created],
    ["Solutions skipped", result.solutions_skipped],
    ["Steps created", result.steps_created],
    ["Labels created", result.labels_created],
  ];
  return (
    <dl className="result-grid">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{formatNumber(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function NearDuplicatesReport({ report }: { report: api.NearDuplicatesReport }) {
  const total = report.existing + report.in_file;
  const done = report.mode === "skip" ? "left out" : "imported";
  return (
    <div className="near-dups" data-testid="import-near-duplicates">
      <div className="small">
        Near-duplicate problems ({done}): {formatNumber(report.existing)} of the project's, {formatNumber(report.in_file)} within the file
        {report.mode === "skip" && report.skipped_solutions ? ` · ${formatNumber(report.skipped_solutions)} solutions left out` : ""}
      </div>
      {total > 0 && (
        <ul className="near-dups-examples small">
          {report.examples.map((e) => (
            <li key={e.line}>
              <span className="muted">line {e.line}:</span> {e.problem} <span className="muted">≈ {e.of === "existing" ? "project problem" : "earlier in the file"}:</span> {e.near}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function StatusBadge({ status }: { status: api.ImportJob["status"] }) {
  const cls = { pending: "", running: "badge-blue", done: "badge-green", failed: "badge-red" }[status];
  return <span className={`badge badge-status ${cls}`}>{status}</span>;
}

export function ImportTab({ project, onImported }: { project: api.Project; onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [from, setFrom] = useState<"file" | "hub">("file");
  const [hub, setHub] = useState({ repo: "", config: "default", split: "train", revision: "main" });
  const [format, setFormat] = useState<api.ImportFormat>("auto");
  const [labelsAs, setLabelsAs] = useState<api.LabelsAs>("suggestions");
  const [rowDomain, setRowDomain] = useState("");
  const [detectUses, setDetectUses] = useState(true);
  const [nearDuplicates, setNearDuplicates] = useState<api.NearDuplicates>("keep");
  const [stepRule, setStepRule] = useState<api.StepRule>(api.NO_STEP_RULE);
  const [phase, setPhase] = useState<"idle" | "upload" | "server" | "finished">("idle");
  const [uploaded, setUploaded] = useState(0);
  const [job, setJob] = useState<api.ImportJob | null>(null);
  const [requestError, setRequestError] = useState<string | null>(null);
  const [history, setHistory] = useState<api.ImportJob[] | null>(null);
  const pollTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const loadHistory = useCallback(() => {
    api
      .listImports(project.id)
      .then((p) => setHistory(p.results))
      .catch(() => setHistory([]));
  }, [project.id]);
  useEffect(loadHistory, [loadHistory]);
  useEffect(() => () => {
    if (pollTimer.current) clearTimeout(pollTimer.current);
  }, []);

  const poll = useCallback(
    (id: number) => {
      api
        .getImport(id)
        .then((j) => {
          setJob(j);
          if (isFinished(j)) {
            setPhase("finished");
            loadHistory();
            if (j.status === "done") onImported();
          } else {
            pollTimer.current = setTimeout(() => poll(id), POLL_MS);
          }
        })
        .catch((e: api.ApiError) => {
          if (e.isNetwork) pollTimer.current = setTimeout(() => poll(id), POLL_MS * 3);
          else {
            setRequestError(e.message);
            setPhase("finished");
          }
        });
    },
    [loadHistory, onImported],
  );

  const hubValid = api.HUB_REPO_ID.test(hub.repo) && !hub.repo.includes("..") && !!hub.config && !!hub.split && !!hub.revision;

  async function startHub() {
    setRequestError(null);
    setJob(null);
    setUploaded(1);
    setPhase("server");
    try {
      const queued = await api.importFromHub(project.id, {
        hub_repo: hub.repo,
        hub_config: hub.config,
        hub_split: hub.split,
        hub_revision: hub.revision,
        format,
        labels_as: labelsAs,
        ...(rowDomain ? { domain: rowDomain } : {}),
        detect_uses: detectUses,
        near_duplicates: nearDuplicates,
        ...(stepRule.step_split ? stepRule : {}),
      });
      setJob(queued);
      poll(queued.id);
    } catch (err) {
      const apiErr = err as api.ApiError;
      const fields = Object.values((apiErr.details ?? {}) as Record<string, unknown>).flat().filter((v) => typeof v === "string");
      setRequestError([apiErr.message, ...fields].join(" "));
      setPhase("finished");
    }
  }

  async function start(e: FormEvent) {
    e.preventDefault();
    if (from === "hub") {
      await startHub();
      return;
    }
    if (!file) {
      setRequestError("Choose a file to import.");
      return;
    }
    setRequestError(null);
    setJob(null);
    setUploaded(0);
    setPhase("upload");
    try {
      const queued = await api.uploadImport(
        project.id,
        file,
        format,
        labelsAs,
        (loaded, total) => setUploaded(total > 0 ? loaded / total : 0),
        rowDomain,
        detectUses,
        nearDuplicates,
        stepRule,
      ).promise;
      setUploaded(1);
      setJob(queued);
      setPhase("server");
      if (isFinished(queued)) {
        setPhase("finished");
        loadHistory();
        if (queued.status === "done") onImported();
      } else {
        poll(queued.id);
      }
    } catch (err) {
      const apiErr = err as api.ApiError;
      const detail = apiErr.details?.line != null || apiErr.details?.field ? formatImportError({ ...apiErr.details, message: apiErr.message } as api.ImportErrorInfo) : apiErr.message;
      setRequestError(detail);
      setPhase("finished");
    }
  }

  const busy = phase === "upload" || phase === "server";
  const fraction = importFraction(phase === "upload" ? "upload" : "server", uploaded, job);
  const failed = job?.status === "failed";

  return (
    <div className="stack">
      <form className="card import-form" onSubmit={start}>
        <h2 className="card-title">Import problems and solutions</h2>
        <p className="muted">
          JSON Lines (.jsonl, or gzipped) from PRM800K, ProcessBench, PRMBench, Math-Shepherd, TRL, GSM8K, MATH or a
          steplab export; Parquet and JSON from the Hugging Face Hub. Re-importing the same file adds nothing twice.
        </p>
        <div className="segmented import-from" role="radiogroup" aria-label="Import from">
          {(["file", "hub"] as const).map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={from === value}
              className={from === value ? "on" : undefined}
              onClick={() => setFrom(value)}
              disabled={busy}
              data-testid={`import-from-${value}`}
            >
              {value === "file" ? "A file" : "The Hugging Face Hub"}
            </button>
          ))}
        </div>
        {from === "hub" && <HubTokenNote action="The worker reads the dataset" />}
        <div className="import-grid">
          {from === "hub" && (
            <>
              <label className="field field-wide">
                <span className="field-label">Dataset</span>
                <input
                  className="input mono"
                  value={hub.repo}
                  onChange={(e) => setHub({ ...hub, repo: e.target.value.trim() })}
                  placeholder="Qwen/ProcessBench"
                  maxLength={193}
                  disabled={busy}
                  data-testid="import-hub-repo"
                />
              </label>
              <label className="field">
                <span className="field-label">Config</span>
                <input className="input mono" value={hub.config} maxLength={100} onChange={(e) => setHub({ ...hub, config: e.target.value.trim() })} disabled={busy} data-testid="import-hub-config" />
              </label>
              <label className="field">
                <span className="field-label">Split</span>
                <input className="input mono" value={hub.split} maxLength={100} onChange={(e) => setHub({ ...hub, split: e.target.value.trim() })} disabled={busy} data-testid="import-hub-split" />
              </label>
              <label className="field">
                <span className="field-label">Revision</span>
                <input className="input mono" value={hub.revision} maxLength={200} onChange={(e) => setHub({ ...hub, revision: e.target.value.trim() })} disabled={busy} data-testid="import-hub-revision" />
              </label>
            </>
          )}
          {from === "file" && (
          <label className="field field-wide">
            <span className="field-label">File</span>
            <div className={`file-drop${file ? " file-drop-has" : ""}`}>
              <IconUpload />
              <span className="file-name">{file ? `${file.name} · ${formatBytes(file.size)}` : "Choose a file…"}</span>
              <input
                ref={fileInput}
                type="file"
                className="file-input"
                onChange={(e) => setFile(e.target.files?.[0] ?? null)}
                disabled={busy}
                data-testid="import-file"
              />
            </div>
          </label>
          )}
          <label className="field">
            <span className="field-label">Format</span>
            <select className="input" value={format} onChange={(e) => setFormat(e.target.value as api.ImportFormat)} disabled={busy} data-testid="import-format">
              {FORMATS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">Labels in the file</span>
            <select className="input" value={labelsAs} onChange={(e) => setLabelsAs(e.target.value as api.LabelsAs)} disabled={busy} data-testid="import-labels-as">
              {LABELS_AS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </label>
          {project.domain === "mixed" && (
            <label className="field">
              <span className="field-label">Domain of rows that name none</span>
              <select className="input" value={rowDomain} onChange={(e) => setRowDomain(e.target.value)} disabled={busy} data-testid="import-domain">
                <option value="">Every row names its domain</option>
                {DOMAINS.filter((d) => d.value !== "mixed").map((d) => (
                  <option key={d.value} value={d.value}>
                    {d.label}
                  </option>
                ))}
              </select>
            </label>
          )}
          <StepRuleFields
            value={stepRule}
            onChange={setStepRule}
            disabled={busy}
            projectRule={{ step_split: project.step_split, step_split_regex: project.step_split_regex, step_split_tag: project.step_split_tag ?? "" }}
            testId="import-step-rule"
          />
        </div>
        {from === "file" && <StepPreview projectId={project.id} file={file} rule={stepRule} />}
        <label className="check import-check">
          <input type="checkbox" checked={detectUses} onChange={(e) => setDetectUses(e.target.checked)} disabled={busy} data-testid="import-detect-uses" />
          <span>Detect which earlier steps each step uses, where the file does not say (off: a large file imports a few percent faster)</span>
        </label>
        <label className="field">
          <span className="field-label">Near-duplicate problems</span>
          <select className="input" value={nearDuplicates} onChange={(e) => setNearDuplicates(e.target.value as api.NearDuplicates)} disabled={busy} data-testid="import-near-duplicates-mode">
            <option value="keep">Import them and report them</option>
            <option value="skip">Leave them out (with their solutions) and report them</option>
          </select>
        </label>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy || (from === "file" ? !file : !hubValid)} data-testid="import-submit">
            {busy ? "Importing…" : "Import"}
          </button>
        </div>

        {phase !== "idle" && !requestError && (
          <div className="import-status" data-testid="import-progress">
            <div className="card-row">
              <span className="small">
                {phase === "upload" && `Uploading… ${Math.round(uploaded * 100)}%`}
                {phase === "server" &&
                  (job?.status === "pending"
                    ? "Queued…"
                    : `Processing… ${job && job.bytes_total ? `${formatBytes(job.bytes_done)} of ${formatBytes(job.bytes_total)}` : ""}${job?.rows_done ? ` · ${formatNumber(job.rows_done)} rows` : ""}`)}
                {phase === "finished" && job?.status === "done" && "Import finished"}
                {phase === "finished" && failed && "Import failed"}
              </span>
              <span className="muted small">{Math.round(fraction * 100)}%</span>
            </div>
            <ProgressBar value={fraction} max={1} tone={failed ? "red" : phase === "finished" ? "green" : "accent"} label="Import progress" />
          </div>
        )}

        {requestError && <ErrorBox testId="import-error">{requestError}</ErrorBox>}

        {job && failed && (
          <div className="callout callout-error" role="alert" data-testid="import-error">
            <div className="callout-title">{formatImportError(job.error, job.filename)}</div>
            <div>Nothing was imported. Fix the file and import it again.</div>
          </div>
        )}

        {job && job.status === "done" && (
          <div className="callout callout-success" data-testid="import-result">
            <div className="callout-title">
              Imported {job.filename}
              {job.detected_format || job.result.format ? ` as ${job.result.format || job.detected_format}` : ""}
            </div>
            <ResultCounts result={job.result} />
            {job.result.near_duplicates && <NearDuplicatesReport report={job.result.near_duplicates} />}
          </div>
        )}
      </form>

      {project.domain === "multimodal" && <MediaUpload project={project} />}

      <div className="card card-flush">
        <div className="card-row card-pad">
          <span className="card-title">Past imports</span>
        </div>
        {history && history.length === 0 && <div className="card-pad muted">No imports yet.</div>}
        {history && history.length > 0 && (
          <table className="table" data-testid="import-history">
            <thead>
              <tr>
                <th>File</th>
                <th>Format</th>
                <th>Status</th>
                <th className="num">Rows</th>
                <th className="num">Solutions</th>
                <th className="num">Steps</th>
                <th>Started</th>
              </tr>
            </thead>
            <tbody>
              {history.map((j) => (
                <tr key={j.id}>
                  <td className="mono small">{j.filename}</td>
                  <td>
                    {j.detected_format || j.format}
                    {j.step_split && <div className="small muted">{ruleSummary(j)}</div>}
                  </td>
                  <td>
                    <StatusBadge status={j.status} />
                    {j.status === "failed" && <div className="small text-red">{formatImportError(j.error, j.filename)}</div>}
                  </td>
                  <td className="num">{formatNumber(j.result?.rows ?? j.rows_done)}</td>
                  <td className="num">{formatNumber(j.result?.solutions_created)}</td>
                  <td className="num">{formatNumber(j.result?.steps_created)}</td>
                  <td className="small muted">{formatDate(j.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
