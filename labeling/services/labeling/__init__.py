"""An annotator labeling: drafts, the submit, skip, going back, re-segmenting.

The submit, in the order it runs (annotations.annotation_submit): solution_state.py reads the
solution and the annotation with the row locks, annotations.py writes the labels,
history.py the audit rows, submission_count.py the solution's counters in one UPDATE
(gold/pace.py counts a gold answer); next_task.py claims the next task in the same
transaction when the page asks for it.

    annotations.py       draft save, submit, skip, what the page showed
    solution_state.py    what a label write reads first, row locks taken
    history.py           the label audit trail (LabelHistory), draft rows coalesced
    submission_count.py  a submission's changes to its solution, one UPDATE
    next_task.py         claim, read the page's payload, remember it; submit then next
    my_work.py           reopen and resubmit one's own work ("My work", Back)
    resegment.py         split a step in two, merge a step with the next
"""
