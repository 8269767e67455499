import type { PhraseSet } from "./phrase-set.ts";

const ACT = "(?:check|look|search|read|open|run|re-?run|inspect|examine|find|list|grep|execute|query|fetch|analy[sz]e|verify|investigate|scan|explore|review|dig|browse|call|try|launch|start|get|pull|retrieve|test|count|compute|calculate|go through|take a (?:quick )?look|confirm|trace|locate|pull up|dive)";

/** English. */
export const ENGLISH: PhraseSet = {
  language: "en",
  promise: [
    new RegExp(`\\b(?:i'll|i will|i'm going to|i am going to|i'm gonna|let me|let's|i shall|i'm about to|next,? i'll|now i'll)\\s+(?:now\\s+|first\\s+|quickly\\s+|just\\s+|go ahead and\\s+|also\\s+|then\\s+|immediately\\s+)*${ACT}\\b`, "iu"),
    /\b(?:checking|looking into|searching|running|launching|re-?running|proceeding|resuming|fetching|reading|starting)\b(?:[^.!?]|\.(?=\w)){0,80}\bnow\b/iu,
    /\b(?:one moment|give me a (?:moment|second|sec|minute)|hang on|hold on|bear with me|stand by)\b/iu,
  ],
  presented: [
    /\bhere (?:is|are) (?:the )?(?:results?|output|contents?|matches|search results|listing|lines|source|files?)\b/iu,
    /\bthe (?:file|function|search|query|command|tool|output|directory|folder|listing|log|grep|code)(?: [`"']?[\w./-]+[`"']?)? (?:contains|shows|showed|returns|returned|lists|listed|reads|says|gave|yields|yielded|printed|produced|outputs)\b/iu,
    /\b(?:i (?:have |'ve )?|i've )(?:found|read|ran|run|searched|checked|looked (?:at|through|in)|opened|executed|inspected|listed|grepped|queried|fetched|retrieved|scanned|examined|reviewed|verified|confirmed|went through|created|updated)\b/iu,
    /\b(?:search(?:ing)?|query|grep|command|tool) returned\b|\breturned \d+ (?:matches|results|hits|lines|files|rows)\b/iu,
    /\b(?:after|upon) (?:running|reading|searching|checking|opening|inspecting|executing|listing)\b/iu,
    /\baccording to the (?:file|output|search|results?|logs?|listing|tool)\b/iu,
    /\bas (?:detailed|described|stated|shown|listed|defined) in (?:the )?(?:document|file|doc|log|output|source|listing)\b/iu,
    /\b(?:has|have|was|were) been (?:successfully )?(?:created|updated|saved|deleted|written|added|sent)\b|\b(?:created|updated|saved|deleted) (?:the [\w-]+ )?successfully\b/iu,
    /^(?:output|results?|observation|tool result|search results)\s*:/iu,
  ],
  outputClaim: [
    /^(?:output|results?|observation|tool result(?: \([\w.-]+\))?|returns?|prints?|stdout|console)\s*:/iu,
    /\b(?:this|that|it|which|the (?:code|block|call|search|script|query|snippet|program|tool))\s+(?:prints|printed|outputs|output|returns|returned|gives|gave|shows|showed|yields|yielded|produces|produced|logs|logged|will (?:print|output|return|show|give)|should (?:print|output|return|show|give)|results in)\b/iu,
    /\b(?:running|executing) (?:this|it|the code|the block)(?: gives| returns| prints| shows| yields|,)/iu,
  ],
  answerClaim: [/\b(?:the )?(?:final )?answer(?: is|:)|\bso the (?:result|answer) is\b/iu],
  spawnClaim: [
    /\b(?:i(?:'ve| have)?|we(?:'ve| have)?)\s+(?:just\s+|now\s+|already\s+)?(?:started|spawned|launched|kicked off|created|dispatched|delegated|queued|fired off|set up|opened)\s+(?:a |an |the |\d+ |two |three |four |several |some |parallel )?(?:new |separate |parallel )?(?:sub-?sessions?|sub-?agents?|child sessions?|background (?:tasks?|jobs?|sessions?|workers?)|workers?|sub-?calls?|sub-?tasks?|parallel (?:tasks?|queries|calls)|workflows?|rlm_query|llm_query|recursive (?:calls?|quer(?:y|ies)))\b/iu,
    /\bdelegated\b(?:[^.!?]|\.(?=\w)){0,60}\bto (?:a |an |the )?(?:sub-?(?:session|agent|model|call)s?|child sessions?|workers?|helpers?|background)\b/iu,
    /\b(?:delegated|handed (?:this|it) (?:off|over)|passed (?:this|it) on) to (?:a |an |the )?(?:sub-?(?:session|agent|model|call)|child session|worker|helper|background)/iu,
    /\b(?:sub-?sessions?|sub-?agents?|child sessions?|background (?:tasks?|jobs?)|workers?|sub-?calls?)\s+(?:is|are|has been|have been|was|were)\s+(?:now |already )?(?:running|started|launched|spawned|working|processing|analy[sz]ing|underway|in progress)\b/iu,
    /\b(?:i(?:'ve| have)?) (?:asked|queried|prompted) (?:the |a )?(?:sub-?model|llm_query|rlm_query|another model|a child session)\b/iu,
  ],
  acknowledgesFailure: [
    /\b(?:failed|failure|fails|could not|couldn't|can't|cannot|unable to|was refused|were refused|refused|budget|timed? ?out|did not (?:work|succeed|return|finish|complete)|didn't (?:work|succeed|return|finish|complete)|returned an error|an error occurred|errored|partial|incomplete|not (?:be )?able|may be (?:wrong|incomplete|inaccurate)|unverified|could not be)\b/iu,
  ],
  negation: /\b(?:not|n't|never|no|without|yet to)\b/iu,
};
