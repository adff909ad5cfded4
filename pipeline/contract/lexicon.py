"""The closed vocabulary of the task reader: every word it can account for, with what it does.

A word or phrase outside this vocabulary is not understood, and a clause holding one can only
narrow what the task allows (see `pipeline.contract.reading`). So the list is closed on
purpose: an entry here is a claim that the reader knows every way the word is used in a
request to stockshot; a word whose uses differ (`leave`, `wait`, `keep`, `unless`) stays out,
and its clause falls to the safe side.

Tags (what a token does in its clause):

| tag | does |
|---|---|
| `write` | a verb that writes: replenish, restock, order (as a verb), 补货, 下单 |
| `write_past` | a write already made (`ordered`, `restocked`, 下过单): information |
| `make` | raise / place / create …: writes only with an order noun |
| `order_noun` | orders, POs, 补货单 |
| `order` | `order`, a verb or a noun by its place (resolved in the clause) |
| `modify` | change, touch, 动, 改: a write only under a negation ("don't change anything") |
| `cancel` | cancel, void, 取消 |
| `report` | look, list, tell, which, 哪些, 看看 |
| `neg` | not, don't, never, without, 不要, 别 |
| `only` | only, just, 只 |
| `excl` | except, other than, 除了 (before the ids it excludes) |
| `excl_post` | 除外, 以外, excepted (after them) |
| `but` | `but`: a conjunction, or an exclusion right before ids ("everything but SKU-1") |
| `else` | other, the rest, 其他 |
| `defer` | later, tomorrow, next week, 下周, 以后: the action is put off |
| `self` | myself, I will, 我自己: the user acts |
| `hypo` | if, would, suppose, 如果: a hypothetical |
| `advice` | should, what to, need to be, 要不要: asks whether, not to act |
| `req_modal` | could you / would you: polite opening a clause, else hypothetical |
| `polite` | please, kindly, 请, 帮我 |
| `filler` | articles, prepositions, particles: nothing to read |
| `object` | items, SKUs, rows, 商品 |
| `low` | low, short, below the reorder point, 缺货, 库存不足 |
| `context` | screen, screenshot, page, this morning's, 截图, 下午的 |
| `context_adj` | newer, latest, last: understood only before a screen word or "one" |
| `warehouse_noun` | warehouse, depot, 仓库 |
| `beyond` | the whole warehouse, not just the screen, 整个仓库 |
| `each_warehouse` | each in its own warehouse, by warehouse, 分别, 按仓库 |
| `modal` | may, maybe, 可能: a hedge (hypothetical next to a write) |
| `agent` | a colleague, someone, 同事: a statement about someone else |
| `unsure` | I'm not sure, 不确定 |
| `number_word` | two, both, 两张: understood only before a screen or warehouse word |
| `status` | open (orders) |
| `neg_companion` | yet, for now: understood only beside a negation |
| `raise` | bring, take: a write only with a stock level to reach ("bring them up to 200") |
| `omit` | forget, fail to, 忘了, 漏: only under a negation, which then asks *for* the action |
| `hold` | keep, leave: only in "keep / leave <ids> as is / alone / out", which leaves them out |
| `hold_end` | as is, alone, untouched, out of it: the close of that frame |
| `reason` | a mistake, a duplicate, 下错了: why; beside a cancel or in a clause alone |
| `restate` | I mean, in other words, 就是说: a restatement, understood only when it names no id |
| `settled` | in transit, taken care of, is fine, 在路上: leaves the ids before it out |
| `unwanted` | discontinued, no longer needed, 已停产: leaves SKUs out; of orders, why they go |
| `described` | marked, flagged as, shows up as: understood only before a word of low stock |
| `split` | top, fill: a write with `up` after its object ("top everything up", "fill them up") |
| `particle` | up: the close of that verb |
| `only_these` | and nothing else, nothing more: after ids, or alone in a task that names ids |
| `cite` | says, saying, reads, 写着: after a source, what follows is cited text, not asked for |
| `source` | note, comment, message, 备注: where cited text comes from (understood with `cite`) |
| `disregard` | ignore it, 别管它: turns from cited text; understood only when the task cites |
| `quote` | (quoted words, a placeholder): cited text, never asked for |
| `plus` | as well as, and also, plus: ids after a set ("the low items") join it, never narrow it |
| `allow` | let, allow (让 by its place): only in "don't let <items> run out": restock them |
| `retract` | wait, actually, scratch that, 不对: the request corrects itself; nothing is offered |
| `unless` | unless, except if, 除非: a condition with no term; never understood, nothing offered |
| `part` | one of, a few, half of, first: part of a set; never understood, nothing offered |
"""

from __future__ import annotations

from typing import Final

__all__ = ["EN", "SHORTHAND", "SIZE_NOUNS", "TAGS", "ZH", "Tag"]

SIZE_NOUNS = frozenset({"quantity", "quantities", "amount", "amounts", "qty", "数量", "数目"})
"""Words for the size of an order: a word not understood before one may change every size."""

Tag = str

TAGS: Final = (
    "write",
    "write_past",
    "make",
    "order_noun",
    "order",
    "modify",
    "cancel",
    "report",
    "neg",
    "only",
    "excl",
    "excl_post",
    "but",
    "else",
    "defer",
    "self",
    "hypo",
    "advice",
    "req_modal",
    "polite",
    "filler",
    "object",
    "low",
    "context",
    "context_adj",
    "warehouse_noun",
    "beyond",
    "each_warehouse",
    "modal",
    "agent",
    "unsure",
    "number_word",
    "status",
    "neg_companion",
    "raise",
    "omit",
    "hold",
    "hold_end",
    "reason",
    "restate",
    "plus",
    "allow",
    "retract",
    "unless",
    "part",
    "only_these",
    "cite",
    "source",
    "quote",
    "disregard",
    "split",
    "particle",
    "settled",
    "described",
    "unwanted",
)


def _table(entries: dict[Tag, str]) -> dict[str, Tag]:
    table: dict[str, Tag] = {}
    for tag, words in entries.items():
        assert tag in TAGS, tag
        for word in words.split("|"):
            word = word.strip()
            if word:
                assert word not in table, f"{word!r} is listed twice"
                table[word] = tag
    return table


EN: Final[dict[str, Tag]] = _table(
    {
        "write": (
            "replenish|replenishing|restock|restocking|reorder|reordering|re-order|"
            "re-ordering|top up|top-up|topping up|buy|buying|purchase|purchasing|"
            "order more|buy more|purchase more|refill|refilling|fill up|filling up"
        ),
        "write_past": (
            "ordered|reordered|re-ordered|replenished|restocked|purchased|bought|placed|raised|"
            "has been ordered|have been ordered|was ordered|were ordered|already ordered|"
            "already placed|already raised|have ordered|has ordered|had ordered|"
            "already have ordered|have already ordered|has already ordered"
        ),
        "make": (
            "raise|place|create|make|submit|issue|open up|send|generate|draft|file|put in|"
            "arrange|organise|organize|set up|put through|push through"
        ),
        "order_noun": (
            "orders|replenishment orders|replenishment order|purchase orders|purchase order|"
            "po|pos|restock orders|restock order|reorders|replenishments|replenishment|"
            "purchase requests|purchase request|requisitions|requisition|new order|new orders|"
            "new po|new pos|new purchase order|new purchase orders"
        ),
        "order": "order|ordering",
        "modify": (
            "change|changes|modify|touch|alter|edit|update|write|writes|do anything|"
            "act|proceed|execute|commit"
        ),
        "cancel": (
            "cancel|cancels|cancelling|canceling|cancellation|void|revoke|withdraw|call off|kill|"
            "scrap|get rid of"
        ),
        "report": (
            "which|what|what's|whats|list|show|show me|tell|tell me|report|check|look|see|find|"
            "how many|how much|summarise|summarize|summary|view|status|give me|display|"
            "compare|identify|spot|flag|highlight|count|look at|let me know|overview|"
            "rundown|breakdown|review|inspect|look like|looks|look over|reorder list|"
            "restock list|replenishment list|order list|purchase list|reorder report|"
            "restock report|reorder suggestions|restock suggestions|reorder plan|restock plan|"
            "reorder proposal|reorder candidates|restock candidates|reorder needs|restock needs|"
            "shopping list|buy list|to-order list|to order list|restock quantities|"
            "reorder quantities|restock quantity|reorder quantity|order quantities|"
            "replenishment quantities|restock amounts|reorder amounts"
        ),
        "neg": (
            "not|don't|dont|do not|does not|doesn't|never|no|without|must not|mustn't|"
            "shouldn't|should not|won't|will not|cannot|can't|can not|avoid|hold off|"
            "hold off on|refrain from|stop|no need to|nothing|none|neither|nor|"
            "not going to|don't want|do not want|no purchasing|no ordering|no buying"
        ),
        "only": "only|just|solely|exclusively",
        "excl": (
            "except|except for|excluding|exclude|other than|apart from|aside from|besides|"
            "but not|not including|skip|skipping|leave out|leaving out|ignore|ignoring|"
            "minus|rather than|instead of|save for|with the exception of|omit|omitting|"
            "forget about|don't bother with|do not bother with|never mind|nevermind|"
            "no need for"
        ),
        "excl_post": "excepted|aside|excluded",
        "unwanted": (
            "discontinued|is discontinued|being discontinued|phased out|phasing out|"
            "being phased out|obsolete|end of life|end-of-life|no longer stocked|no longer sold|"
            "no longer needed|not needed|not needed anymore|not needed any more"
        ),
        "settled": (
            "on its way|already on its way|on the way|already on the way|"
            "in transit|already in transit|already on order|on order already|"
            "handled already|already handled|taken care of|already taken care of|"
            "covered already|already covered|we have enough of|we've got enough of|"
            "we have plenty of|we've got plenty of|we have enough|we've got enough|"
            "we have plenty|is fine for now|is fine|is ok|is okay|are fine|can stay|"
            "stays|stays as it is|stays as is|can stay as it is|can stay as is|should stay"
        ),
        "but": "but",
        "else": (
            "other|others|the rest|the rest of|everything else|anything else|remaining|"
            "the remaining|rest of|else|elsewhere|everywhere else"
        ),
        "defer": (
            "later|tomorrow|tonight|next week|next month|next time|afterwards|after|"
            "eventually|someday|some day|in a bit|in a while|in an hour|end of day|"
            "end of the day|eod|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
            "this weekend|next year|soon|until|till|once|can wait|could wait|will wait|"
            "has to wait|have to wait|must wait|will have to wait|can hold|not yet"
        ),
        "self": (
            "myself|ourselves|i will|i'll|i am going to|i'm going to|i'm gonna|i'd rather|"
            "let me|we will|we'll|we're going to|we are going to|i can|we can|i plan to|"
            "we plan to|i want to|we want to|i need to|we need to|i'll do it|i will do it|"
            "leave it to me|i'll handle|i will handle|i shall|we shall|my team will|i myself"
        ),
        "hypo": (
            "if|would|what if|suppose|supposing|hypothetically|imagine|in case|were to|"
            "could|assuming|say we|pretend|in theory|theoretically"
        ),
        "advice": (
            "should|should i|should we|what to|which to|how much to|how many to|whether to|"
            "need to be|needs to be|to be|ought to|recommend|suggest|would you recommend|"
            "worth|do i need to|do we need to|anything to|something to|is there anything to|"
            "any to|shouldn't we|should not we"
        ),
        "req_modal": (
            "could you|would you|can you|will you|could you please|would you please|"
            "can you please|will you please|would you mind|do you mind|would you kindly|"
            "could you kindly|can you kindly|would you be able to|could you be able to|"
            "are you able to|would it be possible to|is it possible to|could we|can we|"
            "could we please|can we please|mind|any chance you could|any chance you can|"
            "any chance of|you can|you may|you could|how about|what about|why not|"
            "why don't you|why not just|why don't we|can't we|can't you|couldn't we|"
            "couldn't you|won't you|can we not|could we not|"
            "it wouldn't hurt to|wouldn't hurt to|it won't hurt to|no reason not to|"
            "there's no reason not to|"
            "i'd appreciate it if you|i would appreciate it if you|i'd appreciate it if you could|"
            "it would be great if you could|it would be great if you|it'd be great if you could|"
            "would be great if you could|it would help if you could|it would help if you"
        ),
        "polite": (
            "please|pls|plz|kindly|go ahead and|i'd like you to|i would like you to|"
            "i want you to|i need you to|we need you to|we'd like you to|help me|thanks|"
            "thank you|cheers|ok|okay|hi|hello|hey|asap|as soon as possible|right away|"
            "for me|for us|if you can|if possible|if you could|go ahead|now please|"
            "quickly|today|straight away|at once|for me please|make sure|make sure to|"
            "make sure you|be sure to|remember to|please remember to|thanks a lot|"
            "thanks so much|many thanks|thank you so much|thanks in advance|let's|let us|"
            "don't hesitate to|do not hesitate to|feel free to|you can go ahead and|"
            "no need to ask|without asking|without asking me|no need to check with me|"
            "no need to confirm|no confirmation needed|don't ask me|do not ask me|"
            "no questions|no questions asked|yes|yep|yeah|sure|urgently|"
            "as needed|where needed|as necessary|where necessary|if needed|if necessary|"
            "as required|where required|when needed"
        ),
        "filler": (
            "a|an|the|this|that|these|those|it|its|it's|they|them|their|there|here|here are|"
            "here is|is|are|be|been|was|were|am|of|in|on|at|from|for|to|with|by|and|or|then|"
            "also|as well|too|so|all|every|any|some|do|does|me|us|you|your|ones|now|"
            "this one|that one|"
            "right now|currently|at the moment|still|first of all|based on|according to|"
            "as of now|just now|again|get|got|has|have|had|as|that's|those that|which are|"
            "though|although|even though|since|because|given that|seeing as|"
            "etc|shown|showing|listed|visible|appear|appears|seem|seems|"
            "we have|i have|you have|there are|there is|how|where|when|about|currently at|"
            "i think|i believe|i guess|i suppose|i noticed|we noticed|i see|i saw|it looks like|"
            "looks like|seems like|it seems|apparently|heads up|fyi|"
            "below are|above|following|the following|attached|here's|each of|all of|both of|"
            "any of|in one go|all at once|in one batch|the standard quantities|"
            "standard quantities|the default quantities|default quantities|"
            "the suggested quantities|suggested quantities|at the suggested quantities|"
            "policy quantities|the policy quantities|as the policy says|per policy|"
            "per the policy|as per policy|as per the policy|following the policy|"
            "from the usual supplier|from our usual supplier|with the usual supplier|"
            "with our usual supplier|from the default supplier|with our default supplier|"
            "with the default supplier|from our regular supplier|from the regular supplier"
        ),
        "object": (
            "item|items|sku|skus|row|rows|product|products|good|goods|stock|stocks|part|parts|"
            "part number|part numbers|line|lines|line items|line item|thing|things|article|"
            "articles|entry|entries|everything|anything|whatever|stuff|material|materials|"
            "inventory|supplies|supply|merchandise|references|refs|codes|positions|quantity|"
            "quantities|the lot|the whole lot|whole lot"
        ),
        "low": (
            "low|lowest|short|shortage|shortages|running low|run low|runs low|are low|"
            "out of stock|out-of-stock|low stock|low-stock|low on stock|understocked|"
            "under-stocked|below|beneath|under|reorder point|reorder points|reorder level|"
            "reorder levels|reorder threshold|minimum|minimums|min|threshold|thresholds|"
            "safety stock|safety level|need restocking|needs restocking|need replenishing|"
            "needs replenishing|need reordering|needs reordering|need replenishment|"
            "needs replenishment|need a reorder|depleted|empty|nearly out|almost out|"
            "running out|run out|not enough|too few|insufficient|critical|critically low|"
            "hit the reorder point|hit their reorder point|hit its reorder point|"
            "reached the reorder point|reached their reorder point|reached its reorder point|"
            "low levels|below par|short on|low on|in short supply|under the minimum|"
            "below the minimum|below minimum|below threshold|below reorder point|"
            "at or below|what's needed|what is needed|whatever is needed|whatever's needed|"
            "what we need|whatever we need|we're short on|we are short on|we're low on|"
            "we are low on|"
            "we're out of|we are out of|we're running low on|we are running low on|"
            "we're running out of|we are running out of|we're running short on|we run low on"
        ),
        "context": (
            "screen|screens|screenshot|screenshots|screen shot|screen shots|page|pages|photo|"
            "photos|picture|pictures|image|images|pic|pics|export|exports|table|tables|window|"
            "availability screen|stock screen|stock page|stock pages|stock list|stock levels|"
            "stock report|dashboard|erp|system|app|tablet|phone|monitor|capture|captures|"
            "spreadsheet|sheet|grid|data|morning|afternoon|evening|this morning|"
            "this afternoon|this evening|yesterday|different days|the newer one|the older one|"
            "taken|from different days|copy|version|snapshot|snapshots|i sent|i've sent|"
            "i attached|i've attached|i uploaded|i've uploaded|i shared|i took|we sent|"
            "that i placed|which i placed|that we placed|which we placed|that i raised|"
            "that we raised|that i made|that i created"
        ),
        "warehouse_noun": (
            "warehouse|warehouses|wh|depot|depots|site|sites|location|locations|store|stores|"
            "hub|hubs|dc|distribution centre|distribution center"
        ),
        "beyond": (
            "whole warehouse|entire warehouse|all of the warehouse|everything in the warehouse|"
            "not just the screen|not only the screen|not just the screenshot|"
            "not only the screenshot|not just this screen|not just this page|"
            "beyond the screen|beyond the screenshot|not just what's on the screen|"
            "the whole warehouse|the entire warehouse"
        ),
        "each_warehouse": (
            "each in its own warehouse|in its own warehouse|in their own warehouses|"
            "in their own warehouse|per warehouse|by warehouse|for each warehouse|"
            "in each warehouse|in each|in each one|in both|for each|each|respectively|"
            "separately|warehouse by warehouse"
        ),
        "context_adj": "earlier|older|newer|newest|latest|most recent|last|recent|previous",
        "modal": "may|might|maybe|perhaps|possibly|probably|likely",
        "agent": (
            "a colleague|colleague|colleagues|someone|somebody|someone else|another person|"
            "a coworker|coworker|my colleague|our buyer|the buyer|the team|we|i|i've|we've|"
            "we're|we are|i'm|"
            "our team|my team|we've already|i've already"
        ),
        "unsure": (
            "i'm not sure|i am not sure|not sure|unsure|i'm not sure which|i don't know which|"
            "i do not know which|not sure which|i don't know|no idea which"
        ),
        "number_word": "two|three|four|both|several|a couple of|couple of|these two|the two",
        "status": "open|pending|active|outstanding",
        "neg_companion": "yet|for now|for the moment|at all|anymore|any more",
        "raise": "bring|take|bring up|take up",
        "omit": "forget|forget to|fail to|neglect to|miss|overlook|leave off",
        "hold": "keep|leave|hold|keeping|leaving|holding",
        "split": "top|fill",
        "described": (
            "marked|flagged|marked as|flagged as|shown as|shows up as|show up as|showing as|"
            "listed as|that show|that shows"
        ),
        "particle": "up|back up",
        "hold_end": (
            "as is|as it is|as they are|alone|untouched|unchanged|intact|out|out of it|"
            "out of this|out of that|where it is|where they are"
        ),
        "reason": (
            "mistake|a mistake|by mistake|in error|an error|by accident|accidentally|duplicate|"
            "a duplicate|duplicated|typo|a typo|entered twice|placed twice|raised twice|twice|"
            "two times|double-ordered|double ordered|wrong|wrong quantity|wrong item|"
            "wrong items|wrong sku|wrong one|the wrong one|wrong amount|wrong warehouse|"
            "wrong supplier|wrong vendor|wrong price"
        ),
        "restate": "i mean|i e|ie|in other words|namely|that is to say",
        "only_these": (
            "nothing else|and nothing else|nothing more|and nothing more|nothing other|"
            "and that's it|that's it|and no more|no more than that|only those|only these"
        ),
        "cite": (
            "says|say|said|saying|reads|wrote|written|stating|states|"
            "that says|which says|that reads|which reads|telling you to|tells you to|asks you to|"
            "asking you to|tells|telling"
        ),
        "source": (
            "note|notes|sticky note|comment|comments|message|messages|text|caption|label|"
            "labels|annotation|banner|popup|pop-up|instruction|instructions|remark|remarks|"
            "memo|header|footer|footnote|watermark|line of text"
        ),
        "disregard": (
            "ignore it|ignore that|ignore this|ignore them|disregard it|disregard that|"
            "disregard this|never mind that|pay no attention to it|don't follow it|"
            "do not follow it|don't do that|do not do that|not my request|that's not from me|"
            "that is not from me"
        ),
        "plus": "and also|as well as|plus|along with|in addition to|together with|and as well",
        "allow": "let|allow",
        "retract": (
            "scratch that|wait|no wait|wait no|actually|on second thought|correction|"
            "sorry i meant|i meant|make that|change that to|forget that"
        ),
        "unless": "unless|except if|except when",
        "part": (
            "one|one of|any one|just one|only one|a few|a few of|some of|half|half of|"
            "most of|a handful of|first|the lowest one|the highest one"
        ),
    }
)
"""English words and phrases (lower case; the longest match wins)."""

SHORTHAND: Final[dict[str, str]] = {
    "qty": "quantity",
    "qtys": "quantities",
    "thx": "thanks",
    "thanx": "thanks",
    "tx": "thanks",
    "ty": "thank you",
    "reord": "reorder",
    "re-ord": "reorder",
    "repl": "replenish",
    "u": "you",
    "ur": "your",
    "pl": "please",
    "plse": "please",
    "inv": "inventory",
    "topup": "top up",
    "lows": "low",
    "restk": "restock",
}
"""Shorthand people type for a word of the vocabulary (`qty`, `thx`, `reord`): read as that
word, and said in the reading."""
for _short, _word in SHORTHAND.items():
    assert _word in EN, f"shorthand {_short!r} stands for {_word!r}, not in the vocabulary"


ZH: Final[dict[str, Tag]] = _table(
    {
        "write": (
            "补货|补充|下单|订货|采购|购买|进货|补单|补上|补齐|补足|补满|补|订|买|订购|"
            "再订|备货|买入|补一下|补一些|补点|下采购单|补进|订一些|下个单|下一单|下张单|"
            "补到位|补上去|补一补|补补|订一订|缺啥补啥|缺什么补什么|补下|订下|补下货"
        ),
        "write_past": "下过单|订过|补过|已下单|已经下单|已补|已订|已经订了|已经补了|买过",
        "make": "建|建好|创建|提交|开|生成|做|发起|提|开单|建个|建一下|安排|安排一下|下",
        "order_noun": (
            "补货单|采购单|订单|补货申请单|申请单|补货申请|采购申请|单子|单|采购订单|请购单"
        ),
        "modify": "动|改|修改|操作|执行|写|更改|变动|调整|碰|管",
        "cancel": "取消|撤销|作废|撤回|撤掉|退掉|撤单|删掉|删除|取消掉|作废掉|撤销掉|撤|撤了",
        "report": (
            "哪些|哪个|哪几个|哪几样|看看|看一下|看下|查看|查一下|查查|查询|查|列出|列一下|"
            "告诉|报告|多少|是否|有没有|吗|什么|显示|检查|汇总|看|统计|确认|对比|比较|说一下|"
            "说说|给我看|列个清单|清单|报一下|盘点|核对|了解|看看哪些|列表|报给我|说明|"
            "整理|罗列|过一遍|告诉我|发我|发给我|跟我说|通知我|补货清单|采购清单|订货清单|"
            "补货建议|补货计划|采购建议|补货列表|补货数量|订货数量"
        ),
        "neg": (
            "不要|别|先别|不用|无需|不需要|暂不|暂时不|暂时别|不必|勿|禁止|不能|不|没|"
            "先不要|先不|不许|千万别|不准|没必要|免了|不想|暂停|停止|不得|算了|就算了|"
            "不要再|别再|不再|不用再|无需再"
        ),
        "only": "只|仅|只给|只有|仅限|只要|光|仅仅|只是",
        "excl": "除了|除|不包括|不含|排除|跳过|去掉|不算|刨除|扣除|剔除|撇开|除开",
        "excl_post": (
            "除外|以外|之外|外|不算在内|不在内|例外|留着|先留着|留着下次再说|留着以后再说|留着回头再说|"
            "先留着再说|留到下次|留到以后"
        ),
        "settled": "已经在路上|在路上",
        "unwanted": "停产|已停产|淘汰|已淘汰|不再卖|不卖了|不需要了|用不上了",
        "else": "其他|其它|其余|别的|剩下的|剩余|剩下|另外的|其他的",
        "defer": (
            "以后|之后|稍后|晚点|晚些|晚一点|下周|下个月|明天|后天|回头|改天|下次|过几天|"
            "等等|再说|等会|等一下|过会儿|月底|周末|再|下星期|下礼拜|明早|晚些时候|以后再|"
            "等到|等|届时|到时候|改日|下次再说|以后再说|回头再说|先放着|先放一放|先缓缓|缓一缓"
        ),
        "self": (
            "我自己|我来|我会|我们自己|我去|我亲自|我们来|自己来|我手动|手动|我要自己|"
            "让我|我打算|我们会|我们去|我负责|由我|我自个儿|我们打算"
        ),
        "hypo": "如果|假如|要是|假设|万一|的话|假若|倘若|若|会|设想|假定",
        "advice": "应该|要不要|需不需要|该不该|是否需要|需要吗|建议|值得|该",
        "polite": (
            "请|帮我|麻烦|帮忙|给我|请你|劳驾|谢谢|谢了|辛苦|帮|好吗|可以吗|行吗|能不能|"
            "可不可以|能否|可以|你|您|帮我们|替我|给我们|麻烦你|请帮我|一下吧|吧|尽快|"
            "马上|立即|现在就|赶紧|好的|好|能|记得|务必|一定要|记着"
        ),
        "filler": (
            "的|了|把|给|都|也|和|及|与|或|或者|在|里|里面|中|上|上面|这|这张|这个|这些|那|"
            "那些|是|有|就|呢|啊|呀|嘛|一下|个|张|各|所有|全部|全|统一|一起|一并|顺便|然后|"
            "并|并且|同时|先|按|根据|按照|情况|现在|目前|当前|仍然|还|依然|仍|"
            "注意|同一个|同一|不同|对|对于|关于|些|一些|每|以下|以上|下面|如下|这一个|"
            "这一|一个|一张|截了|截|的话就|目前的|现有的|现有|就行|就好|即可|一遍|要|得|"
            "着|过来|出来|起来|上去|下来|里头|当中|其中|这里|那里|这边|一样|同样|照|"
            "以|来|去|被|让|使|用|将|已经|已|之前|刚|刚刚|刚才|都是|这样|分别是|即|"
            "这批|这些个|这几个|那几个|这几样|哪里|怎么|如何|是不是|这次|这回|但是|但|不过|可是|快|快要|"
            "顺手|顺带|顺道|按建议数量|按默认数量|按系统建议|另外|此外|啦|哈|"
            "数量按系统默认|数量按默认|数量默认|数量你定|数量你来定|数量按建议|补完|补好|补完后|"
            "补好后|下完单后|任何|一批|直接|一点|一点儿|一点点|点儿|的时候|时候|照常|照旧|"
            "我觉得|我感觉|好像|看起来|似乎|"
            "它|它们"
        ),
        "object": (
            "商品|货|物料|产品|东西|货品|品|物品|项|行|条目|库存|存货|型号|料|零件|配件|"
            "品项|材料|耗材|货物|条|款|种|样|数量|数目"
        ),
        "low": (
            "缺货|库存不足|低库存|低于|要补的|该补的|需要补的|要订的|需要订的|要下单的|警戒值|最低库存|快断货|断货|不足|缺|少|低|不够|偏低|"
            "告急|快没了|没货|紧张|安全库存|再订货点|补货点|警戒线|库存低|快用完|短缺|"
            "需要补货|需要补|该补|该补货|快缺货|库存紧张|低于警戒值|低于安全库存|不够用|"
            "见底|缺口|最低|警戒|阈值|安全线|下限|少于|小于"
        ),
        "context": (
            "截图|图|照片|页面|表|表格|屏幕|平板|手机|界面|系统|画面|报表|导出|上午|下午|"
            "早上|晚上|前天|昨天|今天|今早|早晨|中午|拍的|拍|截的|库存截图|库存表|库存页面|"
            "这张图|那张图|新的|旧的|较新的|最近的|最近|两张图|截屏|快照|数据|版本|页|最新库存|最新的库存|最新的情况|最新情况"
        ),
        "warehouse_noun": "仓库|仓|库房|库区|库位|仓储|配送中心|中心",
        "beyond": "整个仓库|全仓|不只是截图|不仅是截图|不只截图|不光是截图|整仓|全部库存|所有库存",
        "each_warehouse": "按仓库|分别|各自|各仓库|每个仓库|各个仓库|分仓|按仓",
        "modal": "可能|也许|或许|大概|估计|应该是",
        "agent": "同事|别人|其他人|有人|他们|采购部|采购员|老板|主管|对方",
        "unsure": "不确定|不知道|不清楚|不太清楚|不肯定|搞不清|说不准",
        "number_word": "两|二|三|几|两个|三个|两张|三张|各截了一张|两份|几张",
        "status": "未完成|待处理|进行中|开着的|未关闭|在途|打开的",
        "neg_companion": "暂时|目前先",
        "omit": "忘|忘了|忘记|漏|漏掉|遗漏|落下|落",
        "reason": "下错了|搞错了|弄错了|下重了|重复了|重复下单|多下了|下错|订错了|订错",
        "restate": "就是说|也就是|我是说|我的意思是|意思是",
        "cite": "写着|写的是|说的是|显示着|提示说|上面写|上写着|写道|说要|要求",
        "retract": "不对|说错了|改成|改为|更正|不是这个",
        "unless": "除非|只要不",
        "context_adj": "最新的|最新|最早的|上一张|上一个",
        "part": "几个|几样|部分|一部分|一半|其中一个|其中几个|前几个|那个",
        "disregard": (
            "别管它|不用管它|不要管它|别理它|忽略它|无视它|不用理它|别理会|不用理会|别照做|不要照做"
        ),
        "source": "备注|注释|提示|便签|留言|文字|标注|批注|弹窗|水印|一行字",
    }
)
"""Simplified Chinese words and phrases (segmented by the longest match)."""
