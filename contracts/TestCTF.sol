// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

interface IERC20Like {
    function transfer(address to, uint256 amount) external returns (bool);
}

/// An ERC-1155 conditional-token contract for binary markets on a local chain. The read and
/// redeem signatures match Gnosis ConditionalTokens (payoutNumerators, payoutDenominator,
/// redeemPositions); the deployer registers conditions with their two position ids, mints
/// positions (backed by collateral it sends here) and reports payouts at resolution.
contract TestCTF {
    address public immutable owner;
    mapping(address => mapping(uint256 => uint256)) private _balances;
    mapping(address => mapping(address => bool)) private _operators;
    /// conditionId => [YES position id, NO position id]
    mapping(bytes32 => uint256[2]) public positionIdsOf;
    mapping(bytes32 => uint256[]) public payoutNumerators;
    mapping(bytes32 => uint256) public payoutDenominator;

    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event ApprovalForAll(address indexed account, address indexed operator, bool approved);
    event ConditionResolution(bytes32 indexed conditionId, address indexed oracle, bytes32 indexed questionId, uint256 outcomeSlotCount, uint256[] payoutNumerators);
    event PayoutRedemption(address indexed redeemer, address indexed collateralToken, bytes32 indexed parentCollectionId, bytes32 conditionId, uint256[] indexSets, uint256 payout);

    constructor() {
        owner = msg.sender;
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "only owner");
        _;
    }

    function balanceOf(address account, uint256 id) external view returns (uint256) {
        return _balances[account][id];
    }

    function balanceOfBatch(address[] calldata accounts, uint256[] calldata ids) external view returns (uint256[] memory out) {
        require(accounts.length == ids.length, "ERC1155: length mismatch");
        out = new uint256[](ids.length);
        for (uint256 i = 0; i < ids.length; i++) out[i] = _balances[accounts[i]][ids[i]];
    }

    function setApprovalForAll(address operator, bool approved) external {
        _operators[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function isApprovedForAll(address account, address operator) external view returns (bool) {
        return _operators[account][operator];
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes calldata) external {
        require(from == msg.sender || _operators[from][msg.sender], "ERC1155: caller is not owner nor approved");
        require(_balances[from][id] >= amount, "ERC1155: insufficient balance for transfer");
        _balances[from][id] -= amount;
        _balances[to][id] += amount;
        emit TransferSingle(msg.sender, from, to, id, amount);
    }

    function registerConditions(bytes32[] calldata conditionIds, uint256[] calldata yesIds, uint256[] calldata noIds) external onlyOwner {
        require(conditionIds.length == yesIds.length && yesIds.length == noIds.length, "length mismatch");
        for (uint256 i = 0; i < conditionIds.length; i++) positionIdsOf[conditionIds[i]] = [yesIds[i], noIds[i]];
    }

    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata amounts) external onlyOwner {
        require(ids.length == amounts.length, "length mismatch");
        for (uint256 i = 0; i < ids.length; i++) {
            _balances[to][ids[i]] += amounts[i];
            emit TransferSingle(msg.sender, address(0), to, ids[i], amounts[i]);
        }
    }

    /// Posts the payout of a binary condition: [1, 0] when YES wins, [0, 1] when NO wins.
    function reportPayouts(bytes32 conditionId, uint256[] calldata payouts) external onlyOwner {
        require(payouts.length == 2, "binary conditions only");
        require(positionIdsOf[conditionId][0] != 0, "condition not prepared");
        require(payoutDenominator[conditionId] == 0, "payout denominator already set");
        uint256 den = payouts[0] + payouts[1];
        require(den > 0, "payout is all zeroes");
        payoutNumerators[conditionId] = payouts;
        payoutDenominator[conditionId] = den;
        emit ConditionResolution(conditionId, msg.sender, conditionId, 2, payouts);
    }

    /// The exchange paid a redemption off chain (its own ledger): burns up to `amounts` of the
    /// holder's positions (never more than held), so the same shares cannot be redeemed here too.
    function burnRedeemed(address holder, uint256[] calldata ids, uint256[] calldata amounts) external onlyOwner {
        require(ids.length == amounts.length, "length mismatch");
        for (uint256 i = 0; i < ids.length; i++) {
            uint256 held = _balances[holder][ids[i]];
            uint256 n = amounts[i] < held ? amounts[i] : held;
            if (n > 0) {
                _balances[holder][ids[i]] = held - n;
                emit TransferSingle(msg.sender, holder, address(0), ids[i], n);
            }
        }
    }

    /// Burns the caller's positions in `conditionId` and pays their share of the collateral.
    /// indexSets 1 (YES) and 2 (NO), as with Gnosis ConditionalTokens for a binary condition.
    function redeemPositions(address collateralToken, bytes32 parentCollectionId, bytes32 conditionId, uint256[] calldata indexSets) external {
        require(parentCollectionId == bytes32(0), "nested positions are not supported");
        uint256 den = payoutDenominator[conditionId];
        require(den > 0, "result for condition not received yet");
        uint256 total = 0;
        for (uint256 i = 0; i < indexSets.length; i++) {
            uint256 set = indexSets[i];
            require(set == 1 || set == 2, "got invalid index set");
            uint256 slot = set == 1 ? 0 : 1;
            uint256 id = positionIdsOf[conditionId][slot];
            uint256 stake = _balances[msg.sender][id];
            if (stake > 0) {
                total += (stake * payoutNumerators[conditionId][slot]) / den;
                _balances[msg.sender][id] = 0;
                emit TransferSingle(msg.sender, msg.sender, address(0), id, stake);
            }
        }
        if (total > 0) require(IERC20Like(collateralToken).transfer(msg.sender, total), "could not transfer payout to message sender");
        emit PayoutRedemption(msg.sender, collateralToken, parentCollectionId, conditionId, indexSets, total);
    }
}
