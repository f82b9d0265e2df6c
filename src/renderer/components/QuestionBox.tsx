import { useEffect, useRef, useState } from 'react';
import { useApp, useClient } from '../bridge/context.js';

/** The model asked the person something (ask_user) and waits for the answer. */
export function QuestionBox() {
  const client = useClient();
  const run = useApp((s) => s.run);
  const reviewing = useApp((s) => s.reviewing);
  const q = run?.question;
  const open = !!q && q.answer === undefined && !reviewing && run?.state !== 'ended';
  const [answer, setAnswer] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (open) ref.current?.focus();
    setAnswer('');
    setNotice(null);
  }, [open, q?.questionId]);
  if (!open || !run || !q) return null;

  const send = async () => {
    if (!answer.trim()) return;
    const r = await client.call('question.answer', { runId: run.runId, questionId: q.questionId, answer: answer.trim() }).catch((e: unknown) => {
      setNotice(String(e));
      return null;
    });
    if (r && !r.accepted) setNotice('Already answered.');
  };

  return (
    <section className="panel question" aria-label="Question from the agent" data-testid="question-box">
      <h2>The agent asks</h2>
      <p className="question-text">{q.question}</p>
      <textarea
        ref={ref}
        rows={2}
        data-testid="question-answer"
        value={answer}
        onChange={(e) => setAnswer(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <div className="buttons">
        <button className="primary" onClick={() => void send()} disabled={!answer.trim()}>
          Answer <kbd>Enter</kbd>
        </button>
      </div>
      {notice && <p className="notice">{notice}</p>}
    </section>
  );
}
